import Foundation
public import ShareKitCore
public import ShareKitDeliveryInterface
public import ShareKitMessagesInterface
public import ShareKitOutboxInterface
import ShareKitUploadsInterface

/// Sends the outbox's due items through ``ShareKitDeliveryInterface/ShareDelivering``,
/// the one delivery engine the CLI and the daemon share (docs/architecture.md):
/// uploads, then the message, with the item's `client_msg_id`. The engine
/// decides the outcome; ``OutboxItemKeeper`` carries it out in the queue:
///
/// - Each upload the engine completes is recorded in the outbox as it
///   happens, so a later attempt attaches the same upload (the server's
///   idempotency record names the upload ids).
/// - Sent, including a replay answered with the original message: marked sent.
/// - Kept: pending again after a ``ShareKitCore/BackoffPolicy`` delay (at
///   least the server's `Retry-After`).
/// - Refused: failed with the reason, kept so a person sees it.
/// - Cancelled: due again at once, and the pass stops.
///
/// A claim outlives its drainer only until its lease runs out: each pass
/// first releases claims older than the lease (a drainer killed mid-send),
/// and sending them again is safe because the server answers a known
/// `client_msg_id` with the original message.
public struct OutboxDrainer: OutboxDraining {
    /// Milliseconds since 1970 by the system clock (``ShareKitCore/UnixClock/system``).
    public static let systemClock: @Sendable () -> Int64 = { UnixClock.system.milliseconds() }

    private let outbox: any OutboxQueueing
    private let delivery: any ShareDelivering
    private let makeSender: @Sendable (String) -> DeliveryServer
    private let clock: @Sendable () -> Int64
    private let backoff: BackoffPolicy
    private let leaseMilliseconds: Int64
    private let sentCallback: (@Sendable (OutboxItem, SentMessage) -> Void)?
    private let observer: (@Sendable (DrainEvent) -> Void)?

    /// - Parameters:
    ///   - outbox: the queue.
    ///   - delivery: the delivery engine.
    ///   - makeSender: the server for a server origin (an item names its server).
    ///   - clock: now, in milliseconds since 1970.
    ///   - backoff: the delays of retries.
    ///   - lease: how long a claim lasts before another pass may take the
    ///     item back (longer than one send may take: the upload budget).
    ///   - sentCallback: called after an item is marked sent (the daemon puts
    ///     its target first in the recent targets).
    ///   - observer: each step, for the log.
    public init(
        outbox: any OutboxQueueing, delivery: any ShareDelivering,
        makeSender: @escaping @Sendable (String) -> DeliveryServer,
        clock: @escaping @Sendable () -> Int64 = OutboxDrainer.systemClock, backoff: BackoffPolicy = BackoffPolicy(),
        lease: Duration = .seconds(600), sentCallback: (@Sendable (OutboxItem, SentMessage) -> Void)? = nil,
        observer: (@Sendable (DrainEvent) -> Void)? = nil
    ) {
        self.outbox = outbox
        self.delivery = delivery
        self.makeSender = makeSender
        self.clock = clock
        self.backoff = backoff
        leaseMilliseconds = lease.components.seconds * 1000 + lease.components.attoseconds / 1_000_000_000_000_000
        self.sentCallback = sentCallback
        self.observer = observer
    }

    /// Releases claims older than the lease (their drainer died).
    /// - Returns: how many items are pending again.
    /// - Throws: ``ShareKitOutboxInterface/OutboxError``.
    @discardableResult
    public func releaseStaleClaims() throws(OutboxError) -> Int {
        let now = clock()
        return try outbox.releaseClaims(claimedBefore: now - leaseMilliseconds, now: now)
    }

    /// One pass: releases stale claims, then sends every item due now, one
    /// after the other. Items that fail come back after their backoff, never
    /// within this pass.
    /// - Returns: what happened, and when the next item is due.
    /// - Throws: ``ShareKitOutboxInterface/OutboxError`` when the queue itself fails
    ///   (the item at hand stays claimed until its lease runs out).
    public func drainOnce() async throws(OutboxError) -> DrainReport {
        var report = DrainReport(releasedClaims: try releaseStaleClaims())
        let start = clock()
        while let item = try outbox.nextDue(now: start) {
            observer?(.claimed(item.clientMsgID, attempt: item.attempts))
            if try await send(item, into: &report) == false { break }
        }
        report.nextDueAt = try outbox.counts().nextDueAt
        return report
    }

    /// One attempt of one claimed item.
    /// - Returns: false when the pass should stop (the send was cancelled).
    private func send(_ item: OutboxItem, into report: inout DrainReport) async throws(OutboxError) -> Bool {
        let id = item.clientMsgID
        let keeper = OutboxItemKeeper(
            item: item, outbox: outbox, clock: clock, backoff: backoff, observer: observer)
        let request = DeliveryRequest(server: makeSender(item.serverOrigin))
        let outcome = try await delivery.deliver(request, keeping: keeper)
        switch outcome {
        case .sent(let sent):
            report.sent += 1
            if sent.replayed { report.replayed += 1 }
        case .kept: report.retried += 1
        case .refused: report.failed += 1
        case .cancelled: break
        }
        observer?(.delivered(id, outcome))
        switch outcome {
        case .sent(let sent): sentCallback?(item, sent)
        case .cancelled: return false
        case .kept, .refused: break
        }
        return true
    }

    /// The share to send: the outbox's copies with their current versions,
    /// and the uploads an earlier attempt completed.
    /// - Parameter item: the item.
    /// - Returns: the share.
    /// - Throws: ``ShareKitOutboxInterface/OutboxError/files(path:reason:)`` when a copy is missing or has another size.
    public static func outgoing(_ item: OutboxItem) throws(OutboxError) -> OutgoingShare {
        var sources: [UploadSource] = []
        var completed: [Int: String] = [:]
        for (index, attachment) in item.attachments.enumerated() {
            if let uploadID = attachment.completedUploadID { completed[index] = uploadID }
            let status = try OutboxFiles.status(of: attachment.storedPath)
            guard status.size == attachment.size else {
                throw .files(
                    path: attachment.storedPath, reason: "has \(status.size) bytes, expected \(attachment.size)")
            }
            var source = UploadSource(
                identity: UploadFileIdentity(
                    path: attachment.storedPath, size: status.size,
                    modificationTimeNanoseconds: status.modificationNanoseconds),
                fileName: attachment.fileName, contentType: attachment.contentType)
            source.partDigests = attachment.partDigests
            sources.append(source)
        }
        return OutgoingShare(
            clientMsgID: item.clientMsgID, target: item.target, text: item.text, attachments: sources,
            title: item.title, completedUploadIDs: completed)
    }
}

/// A claimed outbox item as the delivery engine keeps it: each completed
/// upload is recorded as it happens, a sent item is marked sent, a kept one
/// is pending again after its backoff, a refused one is failed with its
/// reason (kept so a person sees it), and a cancelled one is due again at once.
struct OutboxItemKeeper: DeliveryKeeping {
    typealias Failure = OutboxError

    let item: OutboxItem
    let outbox: any OutboxQueueing
    let clock: @Sendable () -> Int64
    let backoff: BackoffPolicy
    let observer: (@Sendable (DrainEvent) -> Void)?

    var place: DeliveryPlace { .outbox }

    func share() -> KeptShare {
        do {
            return .readable(try OutboxDrainer.outgoing(item))
        } catch {
            return .unusable(DeliveryRefusal(stage: .keptShare, code: "outbox_file_missing", message: "\(error)"))
        }
    }

    func uploaded(index: Int, uploadID: String) {
        // Best effort: when it cannot be kept, a resend uploads again,
        // which the server may answer client_msg_id_conflict (visible).
        try? outbox.recordUploaded(item.clientMsgID, index: index, uploadID: uploadID, now: clock())
        observer?(.uploaded(item.clientMsgID, index: index, uploadID: uploadID))
    }

    func sent(_ message: SentMessage) throws(OutboxError) {
        try outbox.markSent(item.clientMsgID, messageID: message.messageID, replayed: message.replayed, now: clock())
    }

    func keep(_ reason: RetryReason, messageRequested: Bool, interrupted: Bool) throws(OutboxError) -> Int64? {
        // A 429 or 5xx with Retry-After: the server's wait is a lower bound.
        let now = clock()
        let next =
            now + backoff.delayMilliseconds(afterAttempt: item.attempts, retryAfterSeconds: reason.retryAfterSeconds)
        try outbox.markRetry(item.clientMsgID, reason: reason.description, nextAttemptAt: next, now: now)
        return next
    }

    func refuse(_ refusal: DeliveryRefusal) throws(OutboxError) -> DeliveryPlace? {
        try outbox.markFailed(item.clientMsgID, code: refusal.code, message: refusal.message, now: clock())
        return .outbox
    }

    func cancelled(keep: Bool, mayBeOnServer: Bool) throws(OutboxError) -> Bool {
        let now = clock()
        try outbox.markRetry(
            item.clientMsgID, reason: MessagesText.table.text(.cancelled, in: .english), nextAttemptAt: now, now: now)
        return true
    }
}
