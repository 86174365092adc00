import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a subprocess to completion without blocking Swift's cooperative
/// thread pool, which has only as many threads as cores (two here), and
/// stops it, with everything it started, when it runs too long.
///
/// The blocking reads and waits happen on threads of their own. Not on
/// Dispatch's global queue: on Linux its pool is sized to the cores too and
/// only grows about once a second when its threads block, so a dozen
/// concurrent `dump-package` runs would queue behind each other (and starve
/// the cooperative pool, which shares those workers).
///
/// The child is started with `posix_spawn` in a process group of its own,
/// because `swift package` starts the compiler and then the compiled
/// manifest: stopping only the first process would leave a manifest that
/// never finishes running after arch-check has given up on it (and holding
/// the output pipes open, so arch-check would wait for it anyway). The
/// manifest runs in yet another group, so a timeout stops the whole tree
/// of descendants (``stopTree(of:)``).
enum ProcessRunner {
    /// What a finished subprocess left behind.
    struct Output: Sendable {
        let status: Int32
        let standardOutput: Data
        let standardError: Data
        /// Whether it was stopped for running longer than the timeout.
        let timedOut: Bool
    }

    /// The program could not be started.
    struct LaunchFailure: Error, CustomStringConvertible {
        let executable: String
        let code: Int32
        var description: String { "cannot start \(executable): \(String(cString: strerror(code)))" }
    }

    /// Runs `executable` with `arguments` and collects both output streams.
    /// - Parameters:
    ///   - environment: the child's environment (the parent's when `nil`).
    ///   - timeout: seconds after which the child's whole process group is
    ///     killed (`nil`: no limit).
    /// - Throws: ``LaunchFailure`` when the program cannot start.
    static func run(
        _ executable: String, arguments: [String], environment: [String: String]? = nil, timeout: Double? = nil
    ) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                do {
                    continuation.resume(
                        returning: try runBlocking(
                            executable, arguments: arguments, environment: environment, timeout: timeout))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            thread.start()
        }
    }

    /// Held while pipes are made close-on-exec and a child is spawned, so
    /// no child started on another thread inherits a pipe end in between
    /// (the reader would then wait for that other child to exit).
    private static let spawnLock = NSLock()

    /// A pipe whose ends are closed in every other child this process
    /// starts (so only the intended child holds the write end, and the
    /// reader sees the end of the stream when that child exits). Called
    /// with ``spawnLock`` held.
    private static func closeOnExecPipe() -> (read: Int32, write: Int32)? {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        return (fds[0], fds[1])
    }

    /// Reads a descriptor to its end on a thread of its own.
    private final class Drain: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        private let done = DispatchSemaphore(value: 0)

        init(_ descriptor: Int32) {
            Thread { [self] in
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let count = read(descriptor, &buffer, buffer.count)
                    if count > 0 {
                        lock.withLock { data.append(contentsOf: buffer[0..<count]) }
                    } else if count < 0 && errno == EINTR {
                        continue
                    } else {
                        break
                    }
                }
                close(descriptor)
                done.signal()
            }.start()
        }

        /// Everything read, once the stream has ended.
        func result() -> Data {
            done.wait()
            return lock.withLock { data }
        }
    }

    private static func runBlocking(
        _ executable: String, arguments: [String], environment: [String: String]?, timeout: Double?
    ) throws -> Output {
        spawnLock.lock()
        var locked = true
        defer { if locked { spawnLock.unlock() } }
        guard let output = closeOnExecPipe() else { throw LaunchFailure(executable: executable, code: errno) }
        guard let error = closeOnExecPipe() else {
            close(output.read)
            close(output.write)
            throw LaunchFailure(executable: executable, code: errno)
        }
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t?
            var attributes: posix_spawnattr_t?
        #else
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output.write, 1)
        posix_spawn_file_actions_adddup2(&actions, error.write, 2)
        // A process group of its own (pgid = its pid), so a timeout can stop
        // the compiler and the manifest it started too.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let environmentStrings = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        let envp = environmentStrings.map { strdup($0) } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        close(output.write)
        close(error.write)
        spawnLock.unlock()
        locked = false
        guard status == 0 else {
            close(output.read)
            close(error.read)
            throw LaunchFailure(executable: executable, code: status)
        }
        let standardOutput = Drain(output.read)
        let standardError = Drain(error.read)

        // Wait on another thread so this one can give up after the timeout.
        let child = pid
        let exited = DispatchSemaphore(value: 0)
        let exitStatus = StatusBox()
        Thread {
            var raw: Int32 = 0
            while waitpid(child, &raw, 0) < 0 && errno == EINTR {}
            exitStatus.set(raw)
            exited.signal()
        }.start()
        var timedOut = false
        if let timeout, exited.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            stopTree(of: child)
            exited.wait()
        } else if timeout == nil {
            exited.wait()
        }
        let raw = exitStatus.get()
        // WIFEXITED / WEXITSTATUS, spelled out (the C macros are not imported).
        let code: Int32 = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        return Output(
            status: code, standardOutput: standardOutput.result(), standardError: standardError.result(),
            timedOut: timedOut)
    }

    /// Kills `root`, its process group and every process descending from
    /// it. SwiftPM runs the compiled manifest in a process group of its own,
    /// so the group alone is not enough: the tree is found through parent
    /// process ids (`/proc` on Linux), frozen with `SIGSTOP` until no new
    /// process appears (a frozen process cannot start another), then killed.
    static func stopTree(of root: pid_t) {
        var frozen: Set<pid_t> = [root]
        kill(-root, SIGSTOP)
        kill(root, SIGSTOP)
        for _ in 0..<10 {
            let found = Set(descendants(of: root)).subtracting(frozen)
            if found.isEmpty { break }
            for pid in found { kill(pid, SIGSTOP) }
            frozen.formUnion(found)
        }
        kill(-root, SIGKILL)
        for pid in frozen { kill(pid, SIGKILL) }
    }

    /// The processes descending from `root` (children, their children, …),
    /// read from `/proc`; empty where there is no `/proc`.
    static func descendants(of root: pid_t) -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        var children: [pid_t: [pid_t]] = [:]
        for entry in entries {
            guard let pid = pid_t(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // After "pid (name)": state, then the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, let parent = pid_t(fields[1]) else { continue }
            children[parent, default: []].append(pid)
        }
        var found: [pid_t] = []
        var queue = [root]
        while let next = queue.popLast() {
            for child in children[next] ?? [] where !found.contains(child) {
                found.append(child)
                queue.append(child)
            }
        }
        return found
    }

    /// Hands the wait status from the waiting thread to this one.
    private final class StatusBox: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Int32 = 0
        func set(_ newValue: Int32) { lock.withLock { value = newValue } }
        func get() -> Int32 { lock.withLock { value } }
    }
}
