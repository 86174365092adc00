public import ShareKitCore

/// The daemon's durable send queue (docs/adr/0006-write-ahead-inbox-and-outbox.md):
/// each share once, keyed by its `client_msg_id`, with the outbox's
/// own copies of its files, until the server holds it or refused it.
///
/// Every change is durable when the call returns, so a process killed at any
/// point leaves the queue as it was before or after the call. Times are
/// milliseconds since 1970-01-01 UTC; `now` is passed in so that callers
/// (and tests) own the clock.
///
/// Several processes may use one queue at once (two daemons by mistake):
/// ``enqueue(_:)-([OutboxItem])`` stores a `client_msg_id` at most once and
/// ``nextDue(now:)`` hands an item to one claimant. `share` gets the narrower
/// ``OutboxManaging``.
public protocol OutboxQueueing: OutboxManaging {
    /// The directory that holds an item's own copies of its files, created
    /// (owner only) when missing. Files are put here before the item is enqueued.
    /// - Parameter clientMsgID: the item.
    /// - Returns: the directory's absolute path.
    /// - Throws: ``OutboxError/files(path:reason:)``.
    func filesDirectory(for clientMsgID: UUIDv7) throws(OutboxError) -> String

    /// Adds items, each unless one with its `client_msg_id` is already
    /// queued (in any state), all in one durable step (one transaction): a
    /// takeover stores a batch of entries with one commit, and repeating it
    /// after a crash adds nothing.
    /// - Parameter items: the items.
    /// - Returns: for each item, true when it was added, false when it was there already.
    /// - Throws: ``OutboxError``; then none of them was added.
    @discardableResult
    func enqueue(_ items: [OutboxItem]) throws(OutboxError) -> [Bool]

    /// Whether an item with this `client_msg_id` is queued, in any state.
    /// - Throws: ``OutboxError/storage(_:)``.
    func contains(_ clientMsgID: UUIDv7) throws(OutboxError) -> Bool

    /// The item with this `client_msg_id`, if any.
    /// - Throws: ``OutboxError/storage(_:)``.
    func item(_ clientMsgID: UUIDv7) throws(OutboxError) -> OutboxItem?

    /// Claims the pending item due first (``OutboxItem/nextAttemptAt`` at or
    /// before `now`): it becomes ``OutboxState/sending``, claimed at `now`,
    /// with one more attempt counted. No other caller gets it until it is
    /// marked or its claim is released.
    /// - Returns: the claimed item, or nil when nothing is due.
    /// - Throws: ``OutboxError/storage(_:)``.
    func nextDue(now: Int64) throws(OutboxError) -> OutboxItem?

    /// Refuses every pending or claimed record that cannot be sent as it is
    /// stored: a number out of its range (``OutboxItem/rangeProblem``), a
    /// column that does not decode, a file outside the item's own folder.
    /// Each becomes ``OutboxState/failed`` with code
    /// ``OutboxItem/invalidRecordCode`` and a reason that names the field,
    /// so a person sees it and drops it; ``nextDue(now:)`` refuses such a
    /// record the same way when it meets one.
    /// - Parameter now: the time of the change.
    /// - Returns: each record refused, with its reason.
    /// - Throws: ``OutboxError/storage(_:)``.
    @discardableResult
    func refuseInvalidRecords(now: Int64) throws(OutboxError) -> [(id: String, reason: String)]

    /// Makes every pending item due at `now`, forgetting its backoff: a
    /// person or a script knows the server is reachable again and wants the
    /// waiting sends tried at once (`share-daemon --retry-now`). Items being
    /// sent, sent or failed are not touched.
    /// - Parameter now: the time they become due.
    /// - Returns: how many pending items were waiting for a later time.
    /// - Throws: ``OutboxError/storage(_:)``.
    @discardableResult
    func makeAllDue(now: Int64) throws(OutboxError) -> Int

    /// Puts items claimed at or before `claimedBefore` back to pending, due
    /// at once: their drainer died (the claim outlived its lease). Sending
    /// them again is safe, the server answers a known `client_msg_id` with
    /// the original message.
    /// - Parameters:
    ///   - claimedBefore: claims this old or older are released.
    ///   - now: the time of the change.
    /// - Returns: how many were released.
    /// - Throws: ``OutboxError/storage(_:)``.
    @discardableResult
    func releaseClaims(claimedBefore: Int64, now: Int64) throws(OutboxError) -> Int

    /// Keeps the upload id of an attachment an attempt completed, so a later
    /// attempt attaches the same upload.
    /// - Throws: ``OutboxError/notFound(_:)``, ``OutboxError/invalidItem(_:)``
    ///   (no attachment at `index`), ``OutboxError/storage(_:)``.
    func recordUploaded(_ clientMsgID: UUIDv7, index: Int, uploadID: String, now: Int64) throws(OutboxError)

    /// The server holds the message (created now, or a replay answered with
    /// the original): the item is ``OutboxState/sent`` and its files are removed.
    /// - Throws: ``OutboxError/notFound(_:)``, ``OutboxError/storage(_:)``.
    func markSent(_ clientMsgID: UUIDv7, messageID: String, replayed: Bool, now: Int64) throws(OutboxError)

    /// The attempt failed for a passing reason: pending again, due at `nextAttemptAt`.
    /// - Parameter reason: why, for a person.
    /// - Throws: ``OutboxError/notFound(_:)``, ``OutboxError/storage(_:)``.
    func markRetry(_ clientMsgID: UUIDv7, reason: String, nextAttemptAt: Int64, now: Int64) throws(OutboxError)

    /// The server refused the share for good: ``OutboxState/failed`` with the
    /// reason, kept (with its files) so a person sees it.
    /// - Parameters:
    ///   - code: the problem code (`write_forbidden`, `file_too_large`, …).
    ///   - message: the reason, for a person.
    /// - Throws: ``OutboxError/notFound(_:)``, ``OutboxError/storage(_:)``.
    func markFailed(_ clientMsgID: UUIDv7, code: String, message: String, now: Int64) throws(OutboxError)

    /// The items in the given states, oldest first.
    /// - Throws: ``OutboxError/storage(_:)``.
    func list(states: Set<OutboxState>) throws(OutboxError) -> [OutboxItem]

    /// How many items are in each state.
    /// - Throws: ``OutboxError/storage(_:)``.
    func counts() throws(OutboxError) -> OutboxCounts

    /// Deletes an item and its files whatever its state.
    /// - Returns: false when there was no such item.
    /// - Throws: ``OutboxError``.
    @discardableResult
    func remove(_ clientMsgID: UUIDv7) throws(OutboxError) -> Bool
}

extension OutboxQueueing {
    /// Adds one item unless one with its `client_msg_id` is already queued
    /// (in any state): idempotent.
    /// - Parameter item: the item.
    /// - Returns: true when it was added, false when it was there already.
    /// - Throws: ``OutboxError``.
    @discardableResult
    public func enqueue(_ item: OutboxItem) throws(OutboxError) -> Bool {
        try enqueue([item]).first ?? false
    }
}
