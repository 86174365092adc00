import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Waits for SIGTERM or SIGINT, so a long-running program (share-server,
/// share-daemon) can stop gracefully instead of dying mid-write.
///
/// A handler of its own writes a byte into a pipe; a thread waits on the
/// pipe. The handler replaces the default action in one `sigaction`, and
/// ``install()`` runs before the program says it is ready, so a stop sent
/// the moment the ready line appears is never lost. (A dispatch signal
/// source needed `SIG_IGN` first and registers itself later, on another
/// thread: a SIGTERM in between was ignored, and the program ran on.)
public enum SignalWaiter {
    private static let installed = Mutex(false)

    /// Installs the handlers for SIGTERM and SIGINT; a signal that comes
    /// before ``waitForTermination()`` is kept and ends that wait at once.
    /// Calling it again does nothing. Call it before printing the line that
    /// tells others the program runs (`listening on`, `ready`).
    public static func install() {
        installed.withLock { done in
            guard !done else { return }
            done = true
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { return }  // no pipe: the default actions stay (stop means exit)
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            // A full pipe (many signals) must not block the handler.
            _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
            signalPipe = (ends[0], ends[1])
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in
                var byte: UInt8 = 1
                _ = write(signalPipe.write, &byte, 1)  // async-signal-safe
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            for number in [SIGTERM, SIGINT] { sigaction(number, &action, nil) }
        }
    }

    /// Returns once the process receives SIGTERM or SIGINT (installing the
    /// handlers first, if ``install()`` was not called).
    public static func waitForTermination() async {
        install()
        let read = signalPipe.read
        guard read >= 0 else {
            // No pipe could be made: the default actions end the process.
            while true { try? await Task.sleep(for: .seconds(3600)) }
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            // A thread of its own: a blocking read must not hold one of the
            // few threads that run the program's tasks.
            Thread.detachNewThread {
                var byte: UInt8 = 0
                while Glibc.read(read, &byte, 1) < 0 && errno == EINTR {}
                continuation.resume()
            }
        }
    }
}

/// The pipe between the signal handler and the waiting thread (set once,
/// under ``SignalWaiter``'s lock, before the handler is installed; read by
/// the handler, which can capture nothing).
nonisolated(unsafe) private var signalPipe: (read: Int32, write: Int32) = (-1, -1)
