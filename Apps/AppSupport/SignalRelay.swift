import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A signal (SIGTERM, Ctrl-C's SIGINT, a window's SIGWINCH) delivered as a
/// call on a thread of its own, for as long as someone watches it.
///
/// ``watch(_:)`` installs a handler of its own in one `sigaction` before it
/// returns; the handler writes a byte into a pipe that a thread reads, and
/// the thread calls the watcher. So a signal that comes right after
/// `watch` (Ctrl-C the moment a prompt appears, a window resized as the
/// picker draws its first frame) is never lost. A dispatch signal source
/// needed the signal ignored first (`SIG_IGN`) and registered its own
/// handler and `signalfd` later, on libdispatch's manager thread: a signal
/// in between met the ignored disposition and was dropped. On a loaded
/// machine that gap was long enough to lose a resize sent right after the
/// picker's first frame (2 times in 8), and a SIGTERM sent the moment a
/// program said it was ready.
public final class SignalRelay: Sendable {
    /// A request to stop (``SignalWaiter``: share-server, share-daemon).
    public static let terminate = SignalRelay(SIGTERM)
    /// Ctrl-C while a program handles it itself (the password prompt, a send
    /// that cleans up, a server that stops gracefully).
    public static let interrupt = SignalRelay(SIGINT)
    /// The terminal window changed size (the picker redraws).
    public static let resize = SignalRelay(SIGWINCH)

    private let number: Int32
    /// Whether the pipe and thread exist, who is told, and the disposition
    /// to give back when nobody watches any more.
    private let state = Mutex<(installed: Bool, listener: (@Sendable () -> Void)?, previous: sigaction?)>(
        (false, nil, nil))

    private init(_ number: Int32) {
        self.number = number
    }

    /// Calls `received` (on the relay's own thread) each time the signal
    /// comes, until ``unwatch()``; one watcher at a time, whose call must be
    /// short and must not watch or unwatch. While watched, the
    /// signal's own action (ending the process, for SIGINT) does not happen.
    public func watch(_ received: @escaping @Sendable () -> Void) {
        state.withLock { state in
            state.listener = received
            if !state.installed {
                state.installed = true
                startReading()
            }
            guard state.previous == nil, relayWriteEnds[Int(number)] >= 0 else { return }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                let saved = errno
                var byte: UInt8 = 1
                _ = write(relayWriteEnds[Int(number)], &byte, 1)  // async-signal-safe
                errno = saved
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            var previous = sigaction()
            sigaction(number, &action, &previous)
            state.previous = previous
        }
    }

    /// Stops telling the watcher and gives the signal back its disposition
    /// from before ``watch(_:)`` (Ctrl-C ends the process again); when it
    /// returns, no call of the watcher is running. A signal already in the
    /// pipe is read and told to nobody.
    public func unwatch() {
        state.withLock { state in
            state.listener = nil
            guard var previous = state.previous else { return }
            sigaction(number, &previous, nil)
            state.previous = nil
        }
    }

    /// Makes the pipe and the thread that reads it (once per signal, for the
    /// life of the process: a thread blocked in `read` costs nothing, and a
    /// late signal never writes into a descriptor number reused meanwhile).
    private func startReading() {
        var ends: [Int32] = [-1, -1]
        // Without a pipe the relay tells nobody and the signal keeps its
        // disposition (watch installs nothing): Ctrl-C ends the process, a
        // resize shows at the next redraw.
        guard pipe(&ends) == 0 else { return }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // Many signals at once must not block the handler on a full pipe.
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        relayWriteEnds[Int(number)] = ends[1]
        let read = ends[0]
        // A thread of its own: a blocking read must not hold one of the few
        // threads that run the program's tasks.
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 64)
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(read, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return }
                // Under the lock: once ``unwatch()`` returns, no watcher's
                // call is still running (a watcher may close what its call
                // writes to). A watcher must not watch or unwatch in it.
                state.withLock { $0.listener?() }
            }
        }
    }
}

/// The write end of each relayed signal's pipe, by signal number (-1: none);
/// read by the handler, which can capture nothing and must not allocate.
/// Set under the relay's lock before its handler is installed.
nonisolated(unsafe) private let relayWriteEnds: UnsafeMutablePointer<Int32> = {
    let ends = UnsafeMutablePointer<Int32>.allocate(capacity: 65)
    ends.initialize(repeating: -1, count: 65)
    return ends
}()
