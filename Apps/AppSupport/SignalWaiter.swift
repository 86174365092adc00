import Synchronization

/// Waits for SIGTERM or SIGINT, so a long-running program (share-server,
/// share-daemon) can stop gracefully instead of dying mid-write.
///
/// Both signals come through ``SignalRelay``, whose handler replaces the
/// default action in one `sigaction`; ``install()`` runs before the program
/// says it is ready, so a stop sent the moment the ready line appears is
/// never lost. (A dispatch signal source needed `SIG_IGN` first and
/// registers itself later, on another thread: a SIGTERM in between was
/// ignored, and the program ran on.)
public enum SignalWaiter {
    /// Whether the relays are watched, whether a signal came, and who waits.
    private static let state = Mutex<(installed: Bool, received: Bool, waiting: [CheckedContinuation<Void, Never>])>(
        (false, false, []))

    /// Watches SIGTERM and SIGINT; a signal that comes before
    /// ``waitForTermination()`` is kept and ends that wait at once.
    /// Calling it again does nothing. Call it before printing the line that
    /// tells others the program runs (`listening on`, `ready`).
    public static func install() {
        let first = state.withLock { state in
            defer { state.installed = true }
            return !state.installed
        }
        guard first else { return }
        for relay in [SignalRelay.terminate, SignalRelay.interrupt] { relay.watch { received() } }
    }

    /// Returns once the process receives SIGTERM or SIGINT (installing the
    /// handlers first, if ``install()`` was not called).
    public static func waitForTermination() async {
        install()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                if !state.received { state.waiting.append(continuation) }
                return state.received
            }
            if now { continuation.resume() }
        }
    }

    /// A signal came: every wait ends, and every later one at once.
    private static func received() {
        let waiting = state.withLock { state in
            state.received = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}
