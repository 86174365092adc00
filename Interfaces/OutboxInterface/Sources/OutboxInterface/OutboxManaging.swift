public import ShareKitCore

/// The daemon's outbox as `share` sees it: what `share status` and
/// `share inbox` show (the items and their counts) and what a person may do
/// to a share there (drop it, make it due now). The queueing itself (enqueue,
/// claims, the outcome of a send) is the daemon's: `share` is not handed it,
/// so a command cannot take part in delivery behind the daemon's back.
public protocol OutboxManaging: Sendable {
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

    /// Makes an item pending again, due at `nextAttemptAt` (a person's retry).
    /// - Parameter reason: why, for a person.
    /// - Throws: ``OutboxError/notFound(_:)``, ``OutboxError/storage(_:)``.
    func markRetry(_ clientMsgID: UUIDv7, reason: String, nextAttemptAt: Int64, now: Int64) throws(OutboxError)
}
