public import DeliveryInterface
public import MessagesInterface
import Synchronization

/// The one ``DeliveryInterface/ShareDelivering`` implementation: the share
/// a keeper holds goes through the sender (uploads, then the message), and
/// the sender's ``MessagesInterface/SendError`` (the API client's
/// classification, with the file and the stage added, never classified
/// again) decides the outcome, which the keeper then carries out:
///
/// - sent: the keeper lets go of the share (or marks it sent);
/// - retryable: kept for a later attempt, unless Ctrl-C came while the
///   message's answer was awaited, which is a cancel that keeps the share;
/// - rejected: refused for good at the stage the send had reached;
/// - cancelled: kept or removed as the request asks, but always kept when
///   the message may be on the server.
public struct DeliveryEngine: ShareDelivering {
    /// Makes the engine; it holds no state between deliveries.
    public init() {}

    public func deliver<Keeper: DeliveryKeeping>(_ request: DeliveryRequest, keeping keeper: Keeper)
        async throws(Keeper.Failure) -> DeliveryOutcome
    {
        let interruption = request.interruption
        defer { interruption?.finish() }
        let share: OutgoingShare
        switch keeper.share() {
        case .readable(let value): share = value
        case .unusable(let refusal): return try refuse(refusal, keeper)
        }
        // The stage a refusal names: the message once it is asked for.
        let stage = Mutex(DeliveryStage.upload)
        let report = request.progress
        let progress: @Sendable (SendProgress) -> Void = { event in
            switch event {
            case .uploaded(let index, let uploadID):
                report?(event)
                keeper.uploaded(index: index, uploadID: uploadID)
            case .creatingMessage:
                stage.withLock { $0 = .message }
                interruption?.messageRequested()
                report?(event)
            case .uploading:
                report?(event)
            }
        }
        let outcome: Result<SentMessage, SendError>
        do {
            outcome = .success(
                try await request.sender.send(share, progress: progress, cancellation: interruption?.cancellation))
        } catch {
            outcome = .failure(error)
        }
        // Ctrl-C after the message was asked for, and no answer that says
        // what the server holds: whatever was asked, the share stays, and
        // the next attempt asks again with the same client_msg_id and gets
        // the stored message if there is one.
        let unknown = interruption?.interruptedAfterRequest ?? false
        switch outcome {
        case .success(let message):
            try keeper.sent(message)
            return .sent(message)
        case .failure(.retryable(let reason)):
            // A message asked for and not answered may be on the server.
            let requested = stage.withLock { $0 } == .message
            let next = try keeper.keep(reason, messageRequested: requested, interrupted: unknown)
            if unknown { return .cancelled(kept: true, mayBeOnServer: true) }
            return .kept(reason, in: keeper.place, nextAttemptAt: next)
        case .failure(.rejected(let code, let message)):
            return try refuse(
                DeliveryRefusal(stage: stage.withLock { $0 }, code: code, message: message), keeper)
        case .failure(.cancelled):
            let kept = try keeper.cancelled(keep: request.keepsOnCancel || unknown, mayBeOnServer: unknown)
            return .cancelled(kept: kept, mayBeOnServer: unknown)
        }
    }

    /// Refuses the share and says where the keeper kept it.
    private func refuse<Keeper: DeliveryKeeping>(_ refusal: DeliveryRefusal, _ keeper: Keeper)
        throws(Keeper.Failure) -> DeliveryOutcome
    {
        var refused = refusal
        refused.keptIn = try keeper.refuse(refusal)
        return .refused(refused)
    }
}
