import ShareKitCore
public import ShareKitDeliveryInterface
public import ShareKitMessagesInterface
import ShareKitUploadsInterface
import Synchronization

/// The test double of ``ShareKitDeliveryInterface/ShareDelivering`` (the delivery
/// engine, the one sender of shares): instead of uploading and asking for a
/// message it plays the next step of a script against the keeper, exactly
/// as the engine would carry out that outcome, and records every delivery.
///
/// Each call to ``deliver(_:keeping:)`` reads the keeper's share first: a
/// share the keeper says is unusable is refused with the keeper's refusal,
/// as the engine does, without using a step. Otherwise the next ``Step``
/// (then `whenExhausted`) is played:
/// - ``Step/send(messageID:replayed:)``: every attachment without a
///   completed upload is reported with ``ShareKitDeliveryInterface/DeliveryKeeping/uploaded(index:uploadID:)``
///   (upload id `upload-<index>`), then ``ShareKitDeliveryInterface/DeliveryKeeping/sent(_:)``;
/// - ``Step/keep(_:messageRequested:)``: ``ShareKitDeliveryInterface/DeliveryKeeping/keep(_:messageRequested:interrupted:)``;
/// - ``Step/refuse(_:)``: ``ShareKitDeliveryInterface/DeliveryKeeping/refuse(_:)``;
/// - ``Step/cancel(mayBeOnServer:)``: ``ShareKitDeliveryInterface/DeliveryKeeping/cancelled(keep:mayBeOnServer:)``
///   with the request's `keepsOnCancel`.
///
/// A failure of the keeper's own storage is thrown on, as the engine does.
///
/// ```swift
/// let delivery = ScriptedDelivery([.keep(.serverError(status: 503, code: "")), .send(messageID: "m-1")])
/// ```
public final class ScriptedDelivery: ShareDelivering {
    /// What one delivery does with its share.
    public enum Step: Hashable, Sendable {
        /// Delivered: the message `messageID` (a replay when `replayed`).
        case send(messageID: String, replayed: Bool = false)
        /// Not delivered now: kept for a later attempt for this reason.
        case keep(RetryReason, messageRequested: Bool = false)
        /// Refused for good.
        case refuse(DeliveryRefusal)
        /// Interrupted by the person.
        case cancel(mayBeOnServer: Bool = false)
    }

    /// One delivery as it was asked for.
    public struct Delivery: Hashable, Sendable {
        /// The share the keeper gave (or why it could not be sent).
        public let share: KeptShare
        /// Where the keeper keeps it.
        public let place: DeliveryPlace
        /// The step played (`nil` when the keeper's share was unusable).
        public let step: Step?
        /// What the delivery returned (`nil` when the keeper's storage failed).
        public let outcome: DeliveryOutcome?
    }

    private struct State {
        var script: [Step]
        var deliveries: [Delivery] = []
    }

    private let state: Mutex<State>
    private let exhausted: Step

    /// Makes a delivery engine that plays a script.
    /// - Parameters:
    ///   - script: one step per delivery, in order.
    ///   - whenExhausted: the step of every delivery after the script; by
    ///     default the share is kept as if there were no network.
    public init(_ script: [Step] = [], whenExhausted: Step = .keep(.noNetwork("the script has no more steps"))) {
        state = Mutex(State(script: script))
        exhausted = whenExhausted
    }

    /// Every delivery so far, in order.
    public var deliveries: [Delivery] { state.withLock { $0.deliveries } }

    /// The shares delivered so far (their `client_msg_id` in order); unusable ones are left out.
    public var shares: [OutgoingShare] {
        deliveries.compactMap { if case .readable(let share) = $0.share { share } else { nil } }
    }

    /// Plays the next step against `keeper`.
    /// - Parameters:
    ///   - request: the delivery's request (its `keepsOnCancel` is honoured).
    ///   - keeper: where the share is kept.
    /// - Returns: the outcome the step gives.
    /// - Throws: the keeper's storage failure.
    public func deliver<Keeper: DeliveryKeeping>(_ request: DeliveryRequest, keeping keeper: Keeper)
        async throws(Keeper.Failure) -> DeliveryOutcome
    {
        let kept = keeper.share()
        let share: OutgoingShare
        switch kept {
        case .unusable(let refusal):
            let place = try keeper.refuse(refusal)
            var refused = refusal
            refused.keptIn = place
            record(Delivery(share: kept, place: keeper.place, step: nil, outcome: .refused(refused)))
            return .refused(refused)
        case .readable(let readable):
            share = readable
        }
        let step = state.withLock { $0.script.isEmpty ? exhausted : $0.script.removeFirst() }
        // Recorded before the keeper acts, so that a storage failure still shows the attempt.
        record(Delivery(share: kept, place: keeper.place, step: step, outcome: nil))
        let outcome: DeliveryOutcome
        switch step {
        case .send(let messageID, let replayed):
            var uploadIDs: [String] = []
            for index in share.attachments.indices {
                let uploadID = share.completedUploadIDs[index] ?? "upload-\(index)"
                if share.completedUploadIDs[index] == nil { keeper.uploaded(index: index, uploadID: uploadID) }
                uploadIDs.append(uploadID)
            }
            let message = SentMessage(
                messageID: messageID, threadID: share.target.kind == .thread ? share.target.id : nil,
                channelID: share.target.kind == .thread ? "" : share.target.id, replayed: replayed,
                attachments: zip(share.attachments, uploadIDs).map { source, uploadID in
                    SentAttachment(
                        uploadID: uploadID, fileName: source.fileName, size: source.identity.size, sha256: "")
                })
            try keeper.sent(message)
            outcome = .sent(message)
        case .keep(let reason, let messageRequested):
            let next = try keeper.keep(reason, messageRequested: messageRequested, interrupted: false)
            outcome = .kept(reason, in: keeper.place, nextAttemptAt: next)
        case .refuse(let refusal):
            var refused = refusal
            refused.keptIn = try keeper.refuse(refusal)
            outcome = .refused(refused)
        case .cancel(let mayBeOnServer):
            let stayed = try keeper.cancelled(keep: request.keepsOnCancel, mayBeOnServer: mayBeOnServer)
            outcome = .cancelled(kept: stayed, mayBeOnServer: mayBeOnServer)
        }
        state.withLock { state in
            let last = state.deliveries.count - 1
            state.deliveries[last] = Delivery(share: kept, place: keeper.place, step: step, outcome: outcome)
        }
        return outcome
    }

    private func record(_ delivery: Delivery) {
        state.withLock { $0.deliveries.append(delivery) }
    }
}
