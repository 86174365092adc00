import Dispatch
import Foundation
import ShareKitPushPreviewInterface
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One run of a notification program (`notify-send`, `xdg-open` or their
/// stand-ins), started and ended by its process id.
///
/// - It is started with `posix_spawn` in a process group of its own, with
///   an empty signal mask and default signal actions (a program started
///   while the caller blocks or ignores SIGTERM must still obey it), its
///   standard input on `/dev/null`, and the caller's descriptors closed
///   (every descriptor here is close-on-exec).
/// - ``stop(grace:)`` sends SIGTERM to its process group, then SIGKILL
///   after `grace` to whatever of the group is left, so a program that
///   ignores SIGTERM, or a shell script's children, end too.
/// - ``finish()`` reads its output and reaps it. The program stays a zombie
///   until its group has been signalled for the last time, so its process
///   group id can never name another process when it is signalled.
///
/// Foundation's `Process` was used before: it has no process group, and
/// a stopped notification was counted as gone while its program (and a
/// script's `sleep`) kept running and kept the output pipe open.
final class NotificationProgram: Sendable {
    /// The process id, which is also its process group's id.
    let pid: pid_t
    /// The read end of its standard output (-1: it writes to `/dev/null`).
    private let output: Int32

    private struct State {
        /// Reaped: the pid may name another process now; never signal it again.
        var reaped = false
        /// ``stop(grace:)`` was called.
        var stopping = false
    }

    private let state = Mutex(State())

    private init(pid: pid_t, output: Int32) {
        self.pid = pid
        self.output = output
    }

    /// Starts a program.
    /// - Parameters:
    ///   - command: the program's name (looked up in `PATH` by `/usr/bin/env`) and its arguments.
    ///   - environment: its whole environment.
    ///   - readOutput: whether its standard output is read (else `/dev/null`).
    /// - Throws: ``ShareKitPushPreviewInterface/PushError/notShown(_:)`` when it
    ///   cannot be started (the system's reason).
    static func start(_ command: [String], environment: [String: String], readOutput: Bool) throws(PushError)
        -> NotificationProgram
    {
        var ends: [Int32] = [-1, -1]
        if readOutput {
            // A socket pair is close-on-exec from its creation: no other
            // program started meanwhile inherits it and keeps it open.
            guard
                socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0
            else {
                throw PushError.notShown("socketpair: \(String(cString: strerror(errno)))")
            }
            shutdown(ends[0], Int32(SHUT_WR))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if readOutput {
            posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let argv: [UnsafeMutablePointer<CChar>?] = (["/usr/bin/env"] + command).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/usr/bin/env", &actions, &attributes, argv, envp)
        if readOutput { close(ends[1]) }
        guard spawned == 0 else {
            if readOutput { close(ends[0]) }
            throw PushError.notShown(String(cString: strerror(spawned)))
        }
        return NotificationProgram(pid: pid, output: readOutput ? ends[0] : -1)
    }

    /// Asks the program to end: SIGTERM to its process group now, SIGKILL
    /// to the group after `grace` when the program has not been reaped by
    /// then. Calling it again does nothing.
    /// - Parameter grace: how long SIGTERM has.
    func stop(grace: Duration) {
        let first = state.withLock { state -> Bool in
            guard !state.reaped, !state.stopping else { return false }
            state.stopping = true
            kill(-pid, SIGTERM)
            return true
        }
        guard first else { return }
        let milliseconds = Int(max(0, grace / .milliseconds(1)))
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(milliseconds)) { [self] in
            state.withLock { state in
                if !state.reaped { kill(-pid, SIGKILL) }
            }
        }
    }

    /// Waits for the program's end (blocking: call it on a thread of its
    /// own), then reaps it.
    ///
    /// Standard output is read while the program runs, its first
    /// `maxOutputBytes` kept; the end of the program, not of its output,
    /// ends the wait (a child it left behind may hold the output open).
    /// When the program was stopped, whatever is left of its process
    /// group is killed before it is reaped.
    /// - Parameters:
    ///   - maxOutputBytes: the most output kept.
    ///   - firstLine: called once with the first line of output (without its
    ///     newline) as soon as it has been read, while the program may still
    ///     run (`notify-send --print-id` prints the notification's id, then
    ///     waits for a click).
    /// - Returns: its exit status (128 + the signal when a signal ended it)
    ///   and the start of its output.
    func finish(maxOutputBytes: Int, firstLine: ((String) -> Void)? = nil) -> (status: Int32, output: [UInt8]) {
        var firstLine = firstLine
        var kept: [UInt8] = []
        defer {
            // A program that ended without a newline: its whole output is the line.
            if let pending = firstLine { pending(String(decoding: kept, as: UTF8.self)) }
        }
        var readable = output
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !hasExited(blocking: readable < 0) {
            // Output, or a second's pause to look at the program again.
            var poller = pollfd(fd: readable, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 1000) == 1 else { continue }
            let n = buffer.withUnsafeMutableBytes { read(readable, $0.baseAddress, $0.count) }
            if n > 0 {
                kept += buffer[0..<min(n, max(0, maxOutputBytes - kept.count))]
                if let pending = firstLine, let newline = kept.firstIndex(of: UInt8(ascii: "\n")) {
                    firstLine = nil
                    pending(String(decoding: kept[..<newline], as: UTF8.self))
                }
            } else if n == 0 || (errno != EINTR && errno != EAGAIN) {
                close(readable)
                readable = -1
            }
        }
        if readable >= 0 {
            // What it wrote before it ended; a child holding the socket cannot stall this.
            _ = fcntl(readable, F_SETFL, fcntl(readable, F_GETFL) | O_NONBLOCK)
            while kept.count < maxOutputBytes {
                let n = buffer.withUnsafeMutableBytes { read(readable, $0.baseAddress, $0.count) }
                guard n > 0 else { break }
                kept += buffer[0..<min(n, maxOutputBytes - kept.count)]
            }
            close(readable)
        }
        var status: Int32 = 0
        state.withLock { state in
            // Still a zombie here, so the group id is still this program's.
            if state.stopping { kill(-pid, SIGKILL) }
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            state.reaped = true
        }
        let signal = status & 0x7F
        return (signal == 0 ? (status >> 8) & 0xFF : 128 + signal, kept)
    }

    /// Whether the program has ended, without reaping it.
    /// - Parameter blocking: wait until it has.
    private func hasExited(blocking: Bool) -> Bool {
        while true {
            var info = siginfo_t()
            let options = WEXITED | WNOWAIT | (blocking ? 0 : WNOHANG)
            if waitid(P_PID, id_t(pid), &info, options) == 0 { return info.si_signo == SIGCHLD }
            if errno != EINTR { return true }  // not a child of this process: nothing to wait for
        }
    }
}
