public import ShareKitHTTPInterface
import Synchronization

/// Ctrl-C while a share is delivered. Before the message is asked for it
/// cancels at once: an upload is aborted and nothing of the share is on the
/// server. Once createMessage (or createThread) has gone out, the server may
/// store the message whatever the client does; aborting then and removing
/// the share would leave the person told "removed" about a message that
/// is there. So it waits for the answer up to ``answerWait`` (a second
/// Ctrl-C stops waiting at once), then cancels the request; the outcome
/// then decides: sent or refused as the server said, otherwise kept for
/// the daemon, which resolves it by the `client_msg_id` without sending
/// twice.
public final class DeliveryInterruption: Sendable {
    /// How long a Ctrl-C after the message was asked for waits for the
    /// server's answer (documented in `share send --help` and the README).
    public static let answerWait: Duration = .seconds(5)

    private struct State {
        var messageRequested = false
        var interrupted = false
        var waited = false
        var finished = false
        var timer: Task<Void, Never>?
    }

    /// The handle the send's requests are cancelled with.
    public let cancellation = HTTPCancellation()
    private let state = Mutex(State())
    private let waitingNotice: @Sendable () -> Void

    /// - Parameter waitingNotice: says that Ctrl-C waits for the server's
    ///   answer (called at most once, on the signal's queue).
    public init(waitingNotice: @escaping @Sendable () -> Void = {}) {
        self.waitingNotice = waitingNotice
    }

    /// The request for the message is about to go out: from now on Ctrl-C waits for its answer.
    public func messageRequested() {
        state.withLock { $0.messageRequested = true }
    }

    /// Whether Ctrl-C came after the message was asked for (the outcome
    /// the send ends with is then the only word on what the server holds).
    public var interruptedAfterRequest: Bool { state.withLock { $0.waited } }

    /// Whether Ctrl-C came at all.
    public var interrupted: Bool { state.withLock { $0.interrupted } }

    /// Whether the request for the message went out (its answer may not have come).
    public var messageWasRequested: Bool { state.withLock { $0.messageRequested } }

    /// Ctrl-C: cancel now, or wait for the answer up to ``answerWait``.
    public func interrupt() {
        enum Action { case cancelNow, wait }
        let action = state.withLock { state -> Action in
            defer { state.interrupted = true }
            // A second Ctrl-C, or one before the message was asked for.
            if state.interrupted || !state.messageRequested { return .cancelNow }
            state.waited = true
            return .wait
        }
        switch action {
        case .cancelNow:
            cancellation.cancel()
        case .wait:
            waitingNotice()
            let cancellation = self.cancellation
            let timer = Task {
                // A bound on the wait a person asked to end, not synchronisation.
                guard (try? await Task.sleep(for: Self.answerWait)) != nil else { return }
                cancellation.cancel()
            }
            let over = state.withLock { state -> Bool in
                state.timer = timer
                return state.finished
            }
            if over { timer.cancel() }
        }
    }

    /// The send is over: a waiting timer is not needed any more.
    public func finish() {
        state.withLock { state in
            state.finished = true
            return state.timer
        }?.cancel()
    }
}
