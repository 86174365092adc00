/// When a retryable failure is tried again: exponential backoff with full
/// jitter (a random delay between zero and `base * 2^(attempt-1)`, at most
/// `cap`), so that many items failing at once do not come back at once. A
/// server's `Retry-After` is a lower bound.
public struct BackoffPolicy: Sendable {
    /// The ceiling of the first retry's delay.
    public var base: Duration
    /// The largest delay.
    public var cap: Duration
    private let random: @Sendable (ClosedRange<Int64>) -> Int64

    /// - Parameters:
    ///   - base: the first ceiling (1 s).
    ///   - cap: the largest delay (5 min).
    ///   - random: picks a value in a range (tests make it predictable).
    public init(
        base: Duration = .seconds(1), cap: Duration = .seconds(300),
        random: @escaping @Sendable (ClosedRange<Int64>) -> Int64 = { Int64.random(in: $0) }
    ) {
        self.base = base
        self.cap = cap
        self.random = random
    }

    /// The delay before the next attempt, in milliseconds (at least 1).
    /// - Parameters:
    ///   - attempt: attempts made so far (1 after the first).
    ///   - retryAfterSeconds: what the server asked for (`429 Retry-After`), if anything.
    /// - Returns: the delay.
    public func delayMilliseconds(afterAttempt attempt: Int, retryAfterSeconds: Int? = nil) -> Int64 {
        let baseMillis = max(1, Self.milliseconds(base))
        let capMillis = max(baseMillis, Self.milliseconds(cap))
        let doublings = min(max(attempt, 1) - 1, 40)
        let ceiling = baseMillis > capMillis >> doublings ? capMillis : min(capMillis, baseMillis << doublings)
        var delay = max(1, random(0...ceiling))
        if let retryAfterSeconds, retryAfterSeconds > 0 { delay = max(delay, Int64(retryAfterSeconds) * 1000) }
        return delay
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
