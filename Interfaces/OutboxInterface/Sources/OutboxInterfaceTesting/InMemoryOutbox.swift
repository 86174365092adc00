import Foundation
public import ShareKitCore
public import ShareKitOutboxInterface
import Synchronization

/// The test double of ``ShareKitOutboxInterface/OutboxQueueing``: the daemon's
/// queue kept in memory, with the same state changes as the real outbox
/// (claiming with ``nextDue(now:)`` counts an attempt and makes the item
/// `sending`; a sent item is never changed back), and failures scripted per
/// operation.
///
/// It records nothing beyond the items themselves: read them back with
/// ``item(_:)``, ``list(states:)`` and ``counts()``. To make the queue's
/// storage fail, script the operation:
///
/// ```swift
/// let outbox = InMemoryOutbox(filesRoot: temporary.path)
/// outbox.fail(.markSent, with: .storage("disk I/O error"))   // the next markSent only
/// ```
///
/// ``filesDirectory(for:)`` makes a real folder below `filesRoot` (the
/// drainer reads the attachments' files); removing an item or marking it
/// sent removes that folder, as the real outbox does.
public final class InMemoryOutbox: OutboxQueueing {
    /// An operation whose next call can be made to fail.
    public enum Operation: String, Hashable, Sendable, CaseIterable {
        /// ``InMemoryOutbox/enqueue(_:)``.
        case enqueue
        /// ``InMemoryOutbox/nextDue(now:)``.
        case nextDue
        /// ``InMemoryOutbox/recordUploaded(_:index:uploadID:now:)``.
        case recordUploaded
        /// ``InMemoryOutbox/markSent(_:messageID:replayed:now:)``.
        case markSent
        /// ``InMemoryOutbox/markRetry(_:reason:nextAttemptAt:now:)``.
        case markRetry
        /// ``InMemoryOutbox/markFailed(_:code:message:now:)``.
        case markFailed
        /// ``InMemoryOutbox/counts()``.
        case counts
    }

    private struct Stored {
        var item: OutboxItem
        var claimedAt: Int64?
    }

    private struct State {
        var items: [String: Stored] = [:]
        var failures: [Operation: [OutboxError]] = [:]
    }

    /// Where the items' folders are made.
    public let filesRoot: String
    private let state = Mutex(State())

    /// Makes an empty queue.
    /// - Parameter filesRoot: an existing folder for the items' files (a test's temporary directory).
    public init(filesRoot: String) {
        self.filesRoot = filesRoot
    }

    /// Makes the next call of `operation` throw `error` (calls queue up, one error each).
    /// - Parameters:
    ///   - operation: the operation.
    ///   - error: what it throws.
    public func fail(_ operation: Operation, with error: OutboxError) {
        state.withLock { $0.failures[operation, default: []].append(error) }
    }

    private func check(_ operation: Operation) throws(OutboxError) {
        let failure = state.withLock { state -> OutboxError? in
            guard var queued = state.failures[operation], !queued.isEmpty else { return nil }
            let first = queued.removeFirst()
            state.failures[operation] = queued
            return first
        }
        if let failure { throw failure }
    }

    /// The item's own folder below ``filesRoot``, made when missing.
    /// - Parameter clientMsgID: the item.
    /// - Returns: the folder's path.
    /// - Throws: ``ShareKitOutboxInterface/OutboxError/files(path:reason:)`` when it cannot be made.
    public func filesDirectory(for clientMsgID: UUIDv7) throws(OutboxError) -> String {
        let path = filesRoot + "/" + clientMsgID.description
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .files(path: path, reason: "\(error)")
        }
        return path
    }

    /// Adds items; one whose `client_msg_id` is queued already is left as it is.
    /// - Parameter items: the items.
    /// - Returns: per item, whether it was added.
    /// - Throws: a scripted failure.
    @discardableResult
    public func enqueue(_ items: [OutboxItem]) throws(OutboxError) -> [Bool] {
        try check(.enqueue)
        return state.withLock { state in
            items.map { item in
                let key = item.clientMsgID.description
                guard state.items[key] == nil else { return false }
                state.items[key] = Stored(item: item)
                return true
            }
        }
    }

    /// Whether the item is queued, in any state.
    /// - Parameter clientMsgID: the item.
    /// - Returns: whether it is there.
    public func contains(_ clientMsgID: UUIDv7) throws(OutboxError) -> Bool {
        state.withLock { $0.items[clientMsgID.description] != nil }
    }

    /// The item as it is now.
    /// - Parameter clientMsgID: the item.
    /// - Returns: the item, nil when it is not queued.
    public func item(_ clientMsgID: UUIDv7) throws(OutboxError) -> OutboxItem? {
        state.withLock { $0.items[clientMsgID.description]?.item }
    }

    /// Claims the pending item due first (earliest `next_attempt_at`, then
    /// creation, then id): it becomes `sending` with one more attempt.
    /// - Parameter now: the time (milliseconds since 1970).
    /// - Returns: the claimed item, nil when none is due.
    /// - Throws: a scripted failure.
    public func nextDue(now: Int64) throws(OutboxError) -> OutboxItem? {
        try check(.nextDue)
        return state.withLock { state in
            let due = state.items.values.map(\.item).filter { $0.state == .pending && $0.nextAttemptAt <= now }
                .min {
                    ($0.nextAttemptAt, $0.createdAt, $0.clientMsgID.description) < (
                        $1.nextAttemptAt, $1.createdAt, $1.clientMsgID.description
                    )
                }
            guard let due else { return nil }
            var claimed = due.countingAttempt()
            claimed.state = .sending
            claimed.updatedAt = now
            state.items[due.clientMsgID.description] = Stored(item: claimed, claimedAt: now)
            return claimed
        }
    }

    /// Fails every waiting item with a number out of its range.
    /// - Parameter now: the time.
    /// - Returns: the ids failed, with the reason.
    @discardableResult
    public func refuseInvalidRecords(now: Int64) throws(OutboxError) -> [(id: String, reason: String)] {
        state.withLock { state in
            var refused: [(id: String, reason: String)] = []
            for (key, stored) in state.items where [.pending, .sending].contains(stored.item.state) {
                guard let problem = stored.item.rangeProblem else { continue }
                var item = stored.item
                item.state = .failed
                item.failureCode = OutboxItem.invalidRecordCode
                item.lastError = problem
                item.updatedAt = now
                state.items[key] = Stored(item: item)
                refused.append((key, problem))
            }
            return refused.sorted { $0.id < $1.id }
        }
    }

    /// Makes every pending item due now.
    /// - Parameter now: the time.
    /// - Returns: how many items changed.
    @discardableResult
    public func makeAllDue(now: Int64) throws(OutboxError) -> Int {
        change { stored in
            guard stored.item.state == .pending, stored.item.nextAttemptAt > now else { return false }
            stored.item.nextAttemptAt = now
            stored.item.updatedAt = now
            return true
        }
    }

    /// Gives claims older than `claimedBefore` back: the items are pending and due now.
    /// - Parameters:
    ///   - claimedBefore: the oldest claim kept.
    ///   - now: the time.
    /// - Returns: how many claims were released.
    @discardableResult
    public func releaseClaims(claimedBefore: Int64, now: Int64) throws(OutboxError) -> Int {
        change { stored in
            guard stored.item.state == .sending, let claimedAt = stored.claimedAt, claimedAt <= claimedBefore else {
                return false
            }
            stored.item.state = .pending
            stored.item.nextAttemptAt = now
            stored.item.updatedAt = now
            stored.claimedAt = nil
            return true
        }
    }

    /// Keeps an attachment's completed upload id.
    /// - Parameters:
    ///   - clientMsgID: the item.
    ///   - index: the attachment.
    ///   - uploadID: the server's upload id.
    ///   - now: the time.
    /// - Throws: `notFound`, `invalidItem` for an index it does not have, or a scripted failure.
    public func recordUploaded(_ clientMsgID: UUIDv7, index: Int, uploadID: String, now: Int64) throws(OutboxError) {
        try check(.recordUploaded)
        try update(clientMsgID, unlessSent: false) { (item: inout OutboxItem) throws(OutboxError) in
            guard item.attachments.indices.contains(index) else {
                throw .invalidItem("item \(clientMsgID) has no attachment \(index)")
            }
            item.attachments[index].completedUploadID = uploadID
            item.updatedAt = now
        }
    }

    /// Marks the item sent and removes its files.
    /// - Parameters:
    ///   - clientMsgID: the item.
    ///   - messageID: the server's message id.
    ///   - replayed: whether the server answered with a replay.
    ///   - now: the time.
    /// - Throws: `notFound` or a scripted failure.
    public func markSent(_ clientMsgID: UUIDv7, messageID: String, replayed: Bool, now: Int64) throws(OutboxError) {
        try check(.markSent)
        try update(clientMsgID, unlessSent: false) { (item: inout OutboxItem) throws(OutboxError) in
            item.state = .sent
            item.messageID = messageID
            item.replayed = replayed
            item.lastError = nil
            item.failureCode = nil
            item.updatedAt = now
        }
        try? FileManager.default.removeItem(atPath: filesRoot + "/" + clientMsgID.description)
    }

    /// Puts the item back to wait, with the reason; a sent item is left as it is.
    /// - Parameters:
    ///   - clientMsgID: the item.
    ///   - reason: why it was not sent.
    ///   - nextAttemptAt: when it is due again.
    ///   - now: the time.
    /// - Throws: `notFound` or a scripted failure.
    public func markRetry(_ clientMsgID: UUIDv7, reason: String, nextAttemptAt: Int64, now: Int64) throws(OutboxError) {
        try check(.markRetry)
        try update(clientMsgID, unlessSent: true) { (item: inout OutboxItem) throws(OutboxError) in
            item.state = .pending
            item.lastError = reason
            item.nextAttemptAt = nextAttemptAt
            item.updatedAt = now
        }
    }

    /// Fails the item for good; a sent item is left as it is.
    /// - Parameters:
    ///   - clientMsgID: the item.
    ///   - code: the refusal's code.
    ///   - message: the refusal's words.
    ///   - now: the time.
    /// - Throws: `notFound` or a scripted failure.
    public func markFailed(_ clientMsgID: UUIDv7, code: String, message: String, now: Int64) throws(OutboxError) {
        try check(.markFailed)
        try update(clientMsgID, unlessSent: true) { (item: inout OutboxItem) throws(OutboxError) in
            item.state = .failed
            item.failureCode = code
            item.lastError = message
            item.updatedAt = now
        }
    }

    /// The items in these states, oldest first.
    /// - Parameter states: the states.
    /// - Returns: the items.
    public func list(states: Set<OutboxState>) throws(OutboxError) -> [OutboxItem] {
        state.withLock { state in
            state.items.values.map(\.item).filter { states.contains($0.state) }
                .sorted { ($0.createdAt, $0.clientMsgID.description) < ($1.createdAt, $1.clientMsgID.description) }
        }
    }

    /// The number of items per state and when the next pending one is due.
    /// - Returns: the counts.
    /// - Throws: a scripted failure.
    public func counts() throws(OutboxError) -> OutboxCounts {
        try check(.counts)
        return state.withLock { state in
            var counts = OutboxCounts()
            for stored in state.items.values {
                switch stored.item.state {
                case .pending: counts.pending += 1
                case .sending: counts.sending += 1
                case .sent: counts.sent += 1
                case .failed: counts.failed += 1
                }
            }
            counts.nextDueAt = state.items.values.filter { $0.item.state == .pending }.map(\.item.nextAttemptAt).min()
            return counts
        }
    }

    /// Removes the item and its files.
    /// - Parameter clientMsgID: the item.
    /// - Returns: whether it was queued.
    @discardableResult
    public func remove(_ clientMsgID: UUIDv7) throws(OutboxError) -> Bool {
        let removed = state.withLock { $0.items.removeValue(forKey: clientMsgID.description) != nil }
        try? FileManager.default.removeItem(atPath: filesRoot + "/" + clientMsgID.description)
        return removed
    }

    private func change(_ body: (inout Stored) -> Bool) -> Int {
        state.withLock { state in
            var changed = 0
            for key in state.items.keys where body(&state.items[key]!) { changed += 1 }
            return changed
        }
    }

    private func update(
        _ clientMsgID: UUIDv7, unlessSent: Bool, _ body: (inout OutboxItem) throws(OutboxError) -> Void
    ) throws(OutboxError) {
        try state.withLock { (state: inout State) throws(OutboxError) in
            let key = clientMsgID.description
            guard var stored = state.items[key] else { throw .notFound(clientMsgID) }
            if unlessSent && stored.item.state == .sent { return }
            try body(&stored.item)
            if stored.item.state != .sending { stored.claimedAt = nil }
            state.items[key] = stored
        }
    }
}
