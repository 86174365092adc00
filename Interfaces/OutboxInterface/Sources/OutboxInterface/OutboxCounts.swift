/// How many items the outbox holds in each state, and when the next is due:
/// the summary `share status` shows.
public struct OutboxCounts: Hashable, Sendable {
    /// Items waiting for their next attempt.
    public var pending: Int
    /// Items a drainer is sending now (or was, until its lease runs out).
    public var sending: Int
    /// Items the server holds.
    public var sent: Int
    /// Items the server refused for good.
    public var failed: Int
    /// The earliest ``OutboxItem/nextAttemptAt`` of a pending item, if any.
    public var nextDueAt: Int64?

    /// Makes a summary.
    public init(pending: Int = 0, sending: Int = 0, sent: Int = 0, failed: Int = 0, nextDueAt: Int64? = nil) {
        self.pending = pending
        self.sending = sending
        self.sent = sent
        self.failed = failed
        self.nextDueAt = nextDueAt
    }

    /// Items not yet sent and not failed: what is still to do.
    public var outstanding: Int { pending + sending }
}
