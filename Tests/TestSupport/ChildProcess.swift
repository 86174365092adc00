import Foundation

/// Finds the programs this package builds (the apps and `ShareTestHelper`),
/// so tests run them as separate processes the way a person runs them.
public enum BuiltProducts {
    /// The build directory that holds the test binary and the executables.
    public static var directory: String {
        if let override = ProcessInfo.processInfo.environment["SHAREKIT_BUILD_DIR"] { return override }
        // The test runner lives in the build directory (…/debug/ShareKitPackageTests.xctest);
        // executables built for the tests sit next to it.
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        while dir.path != "/" {
            if FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("ShareTestHelper").path) {
                return dir.path
            }
            dir = dir.deletingLastPathComponent()
        }
        return exe.deletingLastPathComponent().path
    }

    /// The path of a built executable.
    public static func path(_ name: String) -> String { directory + "/" + name }
}

/// The outcome of a finished child process.
public struct ProcessResult: Sendable {
    /// The exit status (or 128 + signal number when killed).
    public let status: Int32
    /// Everything it wrote to standard output.
    public let stdout: String
    /// Everything it wrote to standard error.
    public let stderr: String
    /// Its peak resident set size in KiB (`ru_maxrss` of `wait4`): what a
    /// memory-flatness test compares across file sizes.
    public var peakResidentKiB: Int = 0
}

/// Runs a program to completion and collects its output.
///
/// Spawned with `posix_spawn` and reaped with `waitpid` rather than through
/// Foundation's `Process`: on Linux, `Process` shares one child-exit monitor
/// whose descriptor every child inherits, so a long-lived child (a server a
/// test keeps running) can hide the exit of a short one and hang the wait.
/// The child also gets an empty signal mask and default signal actions,
/// whatever the test runner blocked.
/// - Parameters:
///   - executable: the program's path.
///   - arguments: its arguments.
///   - environment: extra environment variables (merged over this process's).
///   - stdin: bytes written to its standard input, then closed.
/// - Throws: ``ChildProcessError`` when the program cannot be started.
public func runProcess(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:], stdin: String? = nil
) throws -> ProcessResult {
    var input: [Int32] = [-1, -1]
    var output: [Int32] = [-1, -1]
    var errors: [Int32] = [-1, -1]
    // pipe2 is not visible from Swift here; a lock keeps another of our
    // spawns from inheriting these descriptors before they are close-on-exec.
    spawnLock.lock()
    for index in 0..<3 {
        var pair: [Int32] = [-1, -1]
        guard pipe(&pair) == 0 else {
            spawnLock.unlock()
            throw ChildProcessError("pipe failed (errno \(errno))")
        }
        _ = fcntl(pair[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(pair[1], F_SETFD, FD_CLOEXEC)
        switch index {
        case 0: input = pair
        case 1: output = pair
        default: errors = pair
        }
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, input[0], 0)
    posix_spawn_file_actions_adddup2(&actions, output[1], 1)
    posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
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

    let environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        for pointer in argv { free(pointer) }
        for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    spawnLock.unlock()
    close(input[0])
    close(output[1])
    close(errors[1])
    guard spawned == 0 else {
        close(input[1])
        close(output[0])
        close(errors[0])
        throw ChildProcessError("cannot start \(executable) (error \(spawned))")
    }
    if let stdin {
        var bytes = Array(stdin.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { write(input[1], $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            bytes = bytes.dropFirst(n)
        }
    }
    close(input[1])
    // Read both pipes until both end, so a chatty child never blocks on a full pipe.
    var collected: [[UInt8]] = [[], []]
    var fds = [
        pollfd(fd: output[0], events: Int16(POLLIN), revents: 0),
        pollfd(fd: errors[0], events: Int16(POLLIN), revents: 0),
    ]
    var buffer = [UInt8](repeating: 0, count: 65536)
    while fds.contains(where: { $0.fd >= 0 }) {
        let ready = poll(&fds, nfds_t(fds.count), -1)
        if ready < 0 {
            if errno == EINTR { continue }
            break
        }
        for index in fds.indices where fds[index].fd >= 0 && fds[index].revents != 0 {
            let n = buffer.withUnsafeMutableBytes { read(fds[index].fd, $0.baseAddress, $0.count) }
            if n > 0 {
                collected[index] += buffer[0..<n]
            } else if n == 0 || errno != EINTR {
                close(fds[index].fd)
                fds[index].fd = -1
            }
        }
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift cannot import.
    let signal = status & 0x7F
    let exitStatus = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    var result = ProcessResult(
        status: exitStatus, stdout: String(decoding: collected[0], as: UTF8.self),
        stderr: String(decoding: collected[1], as: UTF8.self))
    result.peakResidentKiB = usage.ru_maxrss
    return result
}

private let spawnLock = NSLock()

/// A child process could not be started.
public struct ChildProcessError: Error, CustomStringConvertible {
    /// What failed.
    public let description: String
    init(_ description: String) { self.description = description }
}
