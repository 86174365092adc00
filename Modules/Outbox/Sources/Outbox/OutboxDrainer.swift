import Foundation
public import MessagesInterface
public import OutboxInterface
public import ShareCore
import UploadsInterface

/// Sends the outbox's due items through ``MessagesInterface/ShareSending``,
/// the one sender the CLI and the daemon share (docs/architecture.md): uploads, then the
/// message, with the item's `client_msg_id`.
///
/// - Each upload the sender completes is recorded in the outbox as it
///   happens, so a later attempt attaches the same upload (the server's
///   idempotency record names the upload ids).
/// - Success, including a replay answered with the original message: sent,
///   files removed.
/// - ``MessagesInterface/SendError/retryable(_:)``: pending again after a
///   ``ShareCore/BackoffPolicy`` delay (at least the server's `Retry-After`).
/// - ``MessagesInterface/SendError/rejected(code:message:)``: failed with
///   the reason, kept so a person sees it.
///
/// A claim outlives its drainer only until its lease runs out: each pass
/// first releases claims older than the lease (a drainer killed mid-send),
/// and sending them again is safe because the server answers a known
/// `client_msg_id` with the original message.
public struct OutboxDrainer: OutboxDraining {
    /// Milliseconds since 1970 by the system clock (``ShareCore/UnixClock/system``).
    public static let systemClock: @Sendable () -> Int64 = { UnixClock.system.milliseconds() }

    private let outbox: any OutboxQueueing
    private let makeSender: @Sendable (String) -> any ShareSending
    private let clock: @Sendable () -> Int64
    private let backoff: BackoffPolicy
    private let leaseMilliseconds: Int64
    private let sentCallback: (@Sendable (OutboxItem, SentMessage) -> Void)?
    private let observer: (@Sendable (DrainEvent) -> Void)?

    /// - Parameters:
    ///   - outbox: the queue.
    ///   - makeSender: the sender for a server origin (an item names its server).
    ///   - clock: now, in milliseconds since 1970.
    ///   - backoff: the delays of retries.
    ///   - lease: how long a claim lasts before another pass may take the
    ///     item back (longer than one send may take: the upload budget).
    ///   - sentCallback: called after an item is marked sent (the daemon puts
    ///     its target first in the recent targets).
    ///   - observer: each step, for the log.
    public init(
        outbox: any OutboxQueueing, makeSender: @escaping @Sendable (String) -> any ShareSending,
        clock: @escaping @Sendable () -> Int64 = OutboxDrainer.systemClock, backoff: BackoffPolicy = BackoffPolicy(),
        lease: Duration = .seconds(600), sentCallback: (@Sendable (OutboxItem, SentMessage) -> Void)? = nil,
        observer: (@Sendable (DrainEvent) -> Void)? = nil
    ) {
        self.outbox = outbox
        self.makeSender = makeSender
        self.clock = clock
        self.backoff = backoff
        leaseMilliseconds = lease.components.seconds * 1000 + lease.components.attoseconds / 1_000_000_000_000_000
        self.sentCallback = sentCallback
        self.observer = observer
    }

    /// Releases claims older than the lease (their drainer died).
    /// - Returns: how many items are pending again.
    /// - Throws: ``OutboxInterface/OutboxError``.
    @discardableResult
    public func releaseStaleClaims() throws(OutboxError) -> Int {
        let now = clock()
        return try outbox.releaseClaims(claimedBefore: now - leaseMilliseconds, now: now)
    }

    /// One pass: releases stale claims, then sends every item due now, one
    /// after the other. Items that fail come back after their backoff, never
    /// within this pass.
    /// - Returns: what happened, and when the next item is due.
    /// - Throws: ``OutboxInterface/OutboxError`` when the queue itself fails
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
        let share: OutgoingShare
        do {
            share = try Self.outgoing(item)
        } catch {
            try fail(item, code: "outbox_file_missing", message: "\(error)", into: &report)
            return true
        }
        let outbox = self.outbox
        let clock = self.clock
        let observer = self.observer
        let progress: @Sendable (SendProgress) -> Void = { step in
            guard case .uploaded(let index, let uploadID) = step else { return }
            // Best effort: when it cannot be kept, a resend uploads again,
            // which the server may answer client_msg_id_conflict (visible).
            try? outbox.recordUploaded(id, index: index, uploadID: uploadID, now: clock())
            observer?(.uploaded(id, index: index, uploadID: uploadID))
        }
        let outcome: Result<SentMessage, SendError>
        do {
            outcome = .success(
                try await makeSender(item.serverOrigin).send(share, progress: progress, cancellation: nil))
        } catch {
            outcome = .failure(error)
        }
        switch outcome {
        case .success(let sent):
            try outbox.markSent(id, messageID: sent.messageID, replayed: sent.replayed, now: clock())
            report.sent += 1
            if sent.replayed { report.replayed += 1 }
            observer?(.sent(id, messageID: sent.messageID, replayed: sent.replayed))
            sentCallback?(item, sent)
        case .failure(.retryable(let reason)):
            // A 429 or 5xx with Retry-After: the server's wait is a lower bound.
            let now = clock()
            let next =
                now
                + backoff.delayMilliseconds(afterAttempt: item.attempts, retryAfterSeconds: reason.retryAfterSeconds)
            try outbox.markRetry(id, reason: reason.description, nextAttemptAt: next, now: now)
            report.retried += 1
            observer?(.retry(id, reason: reason.logDescription, nextAttemptAt: next))
        case .failure(.rejected(let code, let message)):
            try fail(item, code: code, message: message, into: &report)
        case .failure(.cancelled):
            let now = clock()
            try outbox.markRetry(id, reason: SendError.cancelled.description, nextAttemptAt: now, now: now)
            return false
        }
        return true
    }

    private func fail(_ item: OutboxItem, code: String, message: String, into report: inout DrainReport)
        throws(OutboxError)
    {
        try outbox.markFailed(item.clientMsgID, code: code, message: message, now: clock())
        report.failed += 1
        observer?(.failed(item.clientMsgID, code: code, message: message))
    }

    /// The share to send: the outbox's copies with their current versions,
    /// and the uploads an earlier attempt completed.
    /// - Parameter item: the item.
    /// - Returns: the share.
    /// - Throws: ``OutboxInterface/OutboxError/files(path:reason:)`` when a copy is missing or has another size.
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
            sources.append(
                UploadSource(
                    identity: UploadFileIdentity(
                        path: attachment.storedPath, size: status.size,
                        modificationTimeNanoseconds: status.modificationNanoseconds),
                    fileName: attachment.fileName, contentType: attachment.contentType))
        }
        return OutgoingShare(
            clientMsgID: item.clientMsgID, target: item.target, text: item.text, attachments: sources,
            title: item.title, completedUploadIDs: completed)
    }
}
