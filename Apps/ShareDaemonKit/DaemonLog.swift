import AppSupport
import Foundation
import Synchronization

/// The daemon's log on standard error, one line per event in the form
/// journald understands (`<priority>` prefix, no timestamp: the journal adds
/// its own): `<6>takeover: took over 2 entries`. Never a token, never a
/// message's text: ids, counts and reasons only.
struct DaemonLog: Sendable {
    enum Level: Int {
        case error = 3
        case warning = 4
        case notice = 5
        case info = 6
        case debug = 7
    }

    let sink: any OutputSink
    let verbose: Bool

    func log(_ level: Level, _ service: String, _ message: String) {
        if level == .debug, !verbose { return }
        let clean = message.replacingOccurrences(of: "\n", with: " ")
        sink.write("<\(level.rawValue)>\(service): \(clean)\n")
    }

    func info(_ service: String, _ message: String) { log(.info, service, message) }
    func warning(_ service: String, _ message: String) { log(.warning, service, message) }
    func error(_ service: String, _ message: String) { log(.error, service, message) }
    func debug(_ service: String, _ message: String) { log(.debug, service, message) }
}

/// A wake-up call for a service loop: any number of `wake()` calls while
/// the loop works make one more pass, never a queue of passes.
final class WakeSignal: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// Asks for one more pass.
    func wake() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.pending = true
            return nil
        }
        waiter?.resume()
    }

    /// Waits for a wake-up or for `timeout`, whichever comes first.
    /// - Returns: false when the task was cancelled (the loop should end).
    func wait(timeout: Duration) async -> Bool {
        if state.withLock({ state in
            defer { state.pending = false }
            return state.pending
        }) {
            return !Task.isCancelled
        }
        let timer = Task { [weak self] in
            // A cancelled timer must not wake anyone (it would cost a pass).
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            self?.wake()
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.pending || Task.isCancelled {
                        state.pending = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            wake()
        }
        timer.cancel()
        return !Task.isCancelled
    }
}
