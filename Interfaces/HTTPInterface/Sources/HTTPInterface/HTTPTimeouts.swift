/// The time limits of one request.
///
/// A large upload over a slow link can rightly take many minutes, so the
/// default has no total limit; a stalled transfer is caught by the
/// low-speed limit instead.
public struct HTTPTimeouts: Hashable, Sendable {
    /// The longest time to establish a connection (DNS, TCP, TLS).
    public var connect: Duration
    /// Bytes per second (sent and received together) below which the
    /// transfer counts as stalled; 0 turns the low-speed check off.
    public var lowSpeedLimit: Int
    /// How long the transfer may stay below ``lowSpeedLimit`` before it is
    /// ended with ``HTTPTimeoutKind/lowSpeed``. Whole seconds (rounded up).
    public var lowSpeedTime: Duration
    /// The longest time for the whole request, nil for no limit.
    public var total: Duration?

    /// Makes time limits.
    /// - Parameters:
    ///   - connect: the connect limit; 10 seconds unless given.
    ///   - lowSpeedLimit: bytes per second counted as stalled; 1 unless given
    ///     (nothing moved at all).
    ///   - lowSpeedTime: how long a stall may last; 30 seconds unless given.
    ///   - total: the limit for the whole request; none unless given.
    public init(
        connect: Duration = .seconds(10), lowSpeedLimit: Int = 1, lowSpeedTime: Duration = .seconds(30),
        total: Duration? = nil
    ) {
        self.connect = connect
        self.lowSpeedLimit = lowSpeedLimit
        self.lowSpeedTime = lowSpeedTime
        self.total = total
    }
}
