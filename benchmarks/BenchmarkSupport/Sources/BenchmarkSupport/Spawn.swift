public import Glibc

/// Starts programs with `posix_spawn` and reaps them with `waitpid` (as the
/// test support does: Foundation's `Process` can miss a child's exit while a
/// long-lived child runs). Children get an empty signal mask and default
/// signal actions, whatever this process ignores (it ignores SIGPIPE).
public enum Spawn {
    /// A program that could not be started or did not finish well.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public let description: String

        /// Makes a failure with its message.
        public init(description: String) {
            self.description = description
        }
    }

    /// Where a child's standard stream goes.
    public enum Stream {
        /// This process's own descriptor (inherited).
        case inherit
        /// A descriptor of this process, duplicated onto the stream.
        case descriptor(Int32)
        /// A file, created or truncated.
        case file(String)
    }

    /// Starts `executable` (searched in PATH when it has no slash).
    /// - Parameter stdin: the file the child reads as standard input.
    /// - Returns: the child's pid.
    /// - Throws: ``Failure`` when it cannot be started.
    public static func start(
        _ executable: String, _ arguments: [String], stdin: String = "/dev/null", stdout: Stream, stderr: Stream
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        for (stream, target) in [(stdout, Int32(1)), (stderr, Int32(2))] {
            switch stream {
            case .inherit: break
            case .descriptor(let fd): posix_spawn_file_actions_adddup2(&actions, fd, target)
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned =
            executable.contains("/")
            ? posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
            : posix_spawnp(&pid, executable, &actions, &attributes, argv, environ)
        guard spawned == 0 else {
            throw Failure(description: "cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        return pid
    }

    /// Waits for a child.
    /// - Parameter timeout: how long to wait, nil for ever.
    /// - Returns: its exit status (128 + the signal when killed), nil when it is still running at the timeout.
    public static func wait(_ pid: pid_t, timeout: Double? = nil) -> Int32? {
        let deadline = timeout.map { Clock.nanoseconds() + UInt64($0 * 1e9) }
        var status: Int32 = 0
        while true {
            let reaped = waitpid(pid, &status, deadline == nil ? 0 : WNOHANG)
            if reaped == pid { break }
            if reaped < 0, errno != EINTR { return -1 }
            if let deadline, Clock.nanoseconds() >= deadline { return nil }
            if deadline != nil { usleep(10_000) }
        }
        return exitStatus(status)
    }

    /// Waits for a child with `wait4` and returns its resource usage too
    /// (`ru_maxrss` is the child's peak resident set in KiB).
    /// - Returns: its exit status (128 + the signal when killed) and its usage.
    public static func waitWithUsage(_ pid: pid_t) -> (status: Int32, usage: rusage) {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            if errno != EINTR { return (-1, usage) }
        }
        return (exitStatus(status), usage)
    }

    /// The exit status of a raw wait status (WIFEXITED / WEXITSTATUS /
    /// WTERMSIG are macros Swift cannot import).
    private static func exitStatus(_ status: Int32) -> Int32 {
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// Runs a program to completion with its output going to this process's stderr.
    /// - Throws: ``Failure`` when it cannot be started or exits with a non-zero status.
    public static func run(_ executable: String, _ arguments: [String]) throws {
        let pid = try start(executable, arguments, stdout: .descriptor(2), stderr: .inherit)
        let status = wait(pid)
        guard status == 0 else {
            throw Failure(
                description: "\(([executable] + arguments).joined(separator: " ")) exited with \(status ?? -1)")
        }
    }

    /// Runs a program to completion and returns its standard output.
    /// - Throws: ``Failure`` when it cannot be started or exits with a non-zero status.
    /// - Parameter started: called with the child's pid once it runs.
    public static func output(_ executable: String, _ arguments: [String], started: (pid_t) -> Void = { _ in }) throws
        -> String
    {
        let (readEnd, writeEnd) = try Pipe.make()
        let pid: pid_t
        do {
            pid = try start(executable, arguments, stdout: .descriptor(writeEnd), stderr: .inherit)
        } catch {
            close(readEnd)
            close(writeEnd)
            throw error
        }
        close(writeEnd)
        started(pid)
        var collected: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if n > 0 {
                collected += buffer[0..<n]
            } else if n == 0 || errno != EINTR {
                break
            }
        }
        close(readEnd)
        let status = wait(pid)
        guard status == 0 else {
            throw Failure(
                description: "\(([executable] + arguments).joined(separator: " ")) exited with \(status ?? -1)")
        }
        return String(decoding: collected, as: UTF8.self)
    }
}

/// A pipe whose two ends are close-on-exec (a child only gets the end it is
/// given by dup2). `pipe2` is not visible from Swift here; the benchmarks
/// spawn from one thread only, so setting the flag afterwards is safe.
public enum Pipe {
    /// Makes the pipe.
    /// - Returns: its read and write ends.
    /// - Throws: ``Spawn/Failure`` when `pipe` fails.
    public static func make() throws -> (read: Int32, write: Int32) {
        var pair: [Int32] = [-1, -1]
        guard pipe(&pair) == 0 else {
            throw Spawn.Failure(description: "pipe failed: \(String(cString: strerror(errno)))")
        }
        _ = fcntl(pair[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(pair[1], F_SETFD, FD_CLOEXEC)
        return (pair[0], pair[1])
    }
}

/// Monotonic time.
public enum Clock {
    /// Nanoseconds of CLOCK_MONOTONIC.
    public static func nanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// CPU time (user and system) the calling thread has used, in nanoseconds.
    public static func threadCPUNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// CPU time (user and system) this whole process has used, in nanoseconds.
    public static func processCPUNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
