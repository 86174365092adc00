/// What one pass of the drainer did.
public struct DrainReport: Hashable, Sendable {
    /// Items the server now holds (``replayed`` of them were answered with the original).
    public var sent: Int
    /// Items the server answered as a replay: an earlier attempt had delivered them.
    public var replayed: Int
    /// Items that failed for a passing reason and wait for their next attempt.
    public var retried: Int
    /// Items the server refused for good.
    public var failed: Int
    /// Claims of dead drainers released at the start of the pass.
    public var releasedClaims: Int
    /// When the next pending item is due (milliseconds since 1970), nil when none is pending.
    public var nextDueAt: Int64?

    /// Makes a report.
    public init(
        sent: Int = 0, replayed: Int = 0, retried: Int = 0, failed: Int = 0, releasedClaims: Int = 0,
        nextDueAt: Int64? = nil
    ) {
        self.sent = sent
        self.replayed = replayed
        self.retried = retried
        self.failed = failed
        self.releasedClaims = releasedClaims
        self.nextDueAt = nextDueAt
    }
}
