public import Foundation

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
    let child = try SpawnedChild(executable, arguments, environment: environment, mergeErrors: false)
    let input = [-1, child.input]
    let output = [child.output, -1]
    let errors = [child.errors, -1]
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
    let collected = readToEnd([output[0], errors[0]])
    let (exitStatus, usage) = child.wait()
    var result = ProcessResult(
        status: exitStatus, stdout: String(decoding: collected[0], as: UTF8.self),
        stderr: String(decoding: collected[1], as: UTF8.self))
    result.peakResidentKiB = usage.ru_maxrss
    TestTranscript.record(program: executable, arguments: arguments, stream: "stdout", text: result.stdout)
    TestTranscript.record(program: executable, arguments: arguments, stream: "stderr", text: result.stderr)
    return result
}

private let spawnLock = NSLock()

/// Starts a program with `posix_spawn`, its standard input, output and
/// error on the three given descriptors, an empty signal mask and default
/// signal actions (whatever the test runner blocked or ignored), and this
/// process's environment with `environment` merged over it.
/// - Returns: the child's pid, or the `posix_spawn` error number.
public func spawnProgram(
    _ executable: String, _ arguments: [String], environment: [String: String], standardStreams: [Int32]
) -> Result<pid_t, ChildProcessError> {
    spawnProgram(
        executable, arguments, environment: environment, standardStreams: standardStreams, controllingTerminal: nil)
}

/// ``spawnProgram(_:_:environment:standardStreams:)`` with the child in a
/// session of its own whose controlling terminal is `controllingTerminal`
/// (nil: as that function).
/// - Parameters:
///   - controllingTerminal: a terminal's path to make the child's
///     controlling terminal, as a terminal window does for its shell:
///     `/dev/tty` then opens it, and Ctrl-C typed there signals the child.
/// - Returns: the child's pid, or the `posix_spawn` error number.
public func spawnProgram(
    _ executable: String, _ arguments: [String], environment: [String: String], standardStreams: [Int32],
    controllingTerminal: String?
) -> Result<pid_t, ChildProcessError> {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let controllingTerminal {
        // After setsid (the attributes come first), the session's first
        // terminal opened without O_NOCTTY becomes its controlling terminal.
        posix_spawn_file_actions_addopen(&actions, 0, controllingTerminal, O_RDWR, 0)
    }
    for (target, source) in standardStreams.enumerated() {
        posix_spawn_file_actions_adddup2(&actions, source, Int32(target))
    }
    // Tests run in parallel threads of one process: a descriptor another
    // test opened without close-on-exec (a pipe's write end, a file filling
    // a disk) would otherwise live on in this child, so that test would wait
    // for an end of file, or for space, until this child exits.
    _ = closeFrom?(&actions, Int32(standardStreams.count))
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    var defaults = sigset_t()
    sigfillset(&defaults)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    // glibc's POSIX_SPAWN_SETSID (0x80), declared only under _GNU_SOURCE,
    // which the Glibc module is not built with.
    let session: Int32 = controllingTerminal == nil ? 0 : 0x80
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | session))
    let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        for pointer in argv { free(pointer) }
        for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    return spawned == 0 ? .success(pid) : .failure(ChildProcessError("posix_spawn error \(spawned)"))
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later): the
/// Glibc module does not declare it, so it is looked up by name; nil (no
/// closing) on a C library without it.
private let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
    else { return nil }
    return unsafeBitCast(
        symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
}()

/// Reads every descriptor (-1 entries are skipped) until all have ended and
/// closes them; polling all at once, so a chatty child never blocks on a full pipe.
package func readToEnd(_ descriptors: [Int32]) -> [[UInt8]] {
    var collected: [[UInt8]] = Array(repeating: [], count: descriptors.count)
    var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
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
    return collected
}

/// A child started with `posix_spawn`: its pid and the parent's ends of its
/// three pipes (close-on-exec, so no other child inherits them and holds a
/// pipe open after this one ended). The child gets an empty signal mask and
/// default signal actions. ``runProcess(_:_:environment:stdin:)`` and
/// ``HelperProcess`` both start children this way and reap them with `wait4`
/// themselves (Foundation's `Process` shares one exit monitor whose wait a
/// long-lived child can delay by many seconds).
package struct SpawnedChild {
    package let pid: pid_t
    /// The write end of the child's standard input.
    package let input: Int32
    /// The read end of its standard output.
    package let output: Int32
    /// The read end of its standard error (-1 when merged into standard output or sent to a file).
    package let errors: Int32

    /// Starts the program.
    /// - Parameters:
    ///   - executable: the program's path.
    ///   - arguments: its arguments.
    ///   - environment: extra environment variables (merged over this process's).
    ///   - mergeErrors: standard error into the standard output pipe.
    ///   - errorFile: a file that standard error is appended to instead of a
    ///     pipe (made 0600 when missing): a chatty child never blocks on it.
    /// - Throws: ``ChildProcessError`` when a pipe, the file or the child cannot be made.
    package init(
        _ executable: String, _ arguments: [String], environment: [String: String], mergeErrors: Bool,
        errorFile: String? = nil
    ) throws {
        var errorTarget: Int32 = -1
        if let errorFile {
            errorTarget = open(errorFile, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
            guard errorTarget >= 0 else { throw ChildProcessError("cannot open \(errorFile) (errno \(errno))") }
        }
        defer { if errorTarget >= 0 { close(errorTarget) } }
        let separateErrors = !mergeErrors && errorFile == nil
        var pipes: [[Int32]] = []
        // pipe2 is not visible from Swift here; a lock keeps another of our
        // spawns from inheriting these descriptors before they are close-on-exec.
        spawnLock.lock()
        for _ in 0..<3 {
            var pair: [Int32] = [-1, -1]
            guard pipe(&pair) == 0 else {
                spawnLock.unlock()
                for open in pipes.flatMap({ $0 }) { close(open) }
                throw ChildProcessError("pipe failed (errno \(errno))")
            }
            _ = fcntl(pair[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(pair[1], F_SETFD, FD_CLOEXEC)
            pipes.append(pair)
        }
        let (input, output, errors) = (pipes[0], pipes[1], pipes[2])
        let errorStream = errorTarget >= 0 ? errorTarget : mergeErrors ? output[1] : errors[1]
        let spawned = spawnProgram(
            executable, arguments, environment: environment, standardStreams: [input[0], output[1], errorStream])
        spawnLock.unlock()
        close(input[0])
        close(output[1])
        close(errors[1])
        guard case .success(let pid) = spawned else {
            close(input[1])
            close(output[0])
            close(errors[0])
            throw ChildProcessError("cannot start \(executable) (\(spawned))")
        }
        if !separateErrors { close(errors[0]) }
        self.pid = pid
        self.input = input[1]
        self.output = output[0]
        self.errors = separateErrors ? errors[0] : -1
    }

    /// Waits for the child at most `limit` (checking every 10 ms).
    /// - Returns: its status and resource use, or nil when it still runs.
    package func wait(limit: Duration) -> (status: Int32, usage: rusage)? {
        let deadline = ContinuousClock.now + limit
        while true {
            var status: Int32 = 0
            var usage = rusage()
            let reaped = wait4(pid, &status, WNOHANG, &usage)
            if reaped == pid { return (Self.exitStatus(status), usage) }
            if reaped < 0 && errno != EINTR { return (-1, usage) }  // not our child any more
            guard ContinuousClock.now < deadline else { return nil }
            usleep(10_000)
        }
    }

    /// Waits for the child and returns its status (128 + signal when killed) and resource use.
    package func wait() -> (status: Int32, usage: rusage) {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        return (Self.exitStatus(status), usage)
    }

    private static func exitStatus(_ status: Int32) -> Int32 {
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift cannot import.
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }
}

/// A child process could not be started.
public struct ChildProcessError: Error, CustomStringConvertible {
    /// What failed.
    public let description: String
    package init(_ description: String) { self.description = description }
}
