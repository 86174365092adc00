/// When a retryable failure is tried again: exponential backoff with full
/// jitter (a random delay between zero and `base * 2^(attempt-1)`, at most
/// `cap`), so that many clients failing at once do not come back at once.
///
/// A server's `Retry-After` is a lower bound, but only up to
/// `retryAfterCap` (1 hour by default): a hostile or broken server answering
/// `Retry-After: 10000000000000000` must not park an item forever. Every
/// input (any attempt count, any `Retry-After`, any `Duration`, a random
/// source that answers outside its range) gives a delay of at least 1 ms
/// without arithmetic overflow.
public struct BackoffPolicy: Sendable {
    /// The ceiling of the first retry's delay.
    public var base: Duration
    /// The largest delay the exponential part reaches.
    public var cap: Duration
    /// The largest `Retry-After` honoured; longer requests wait this long.
    public var retryAfterCap: Duration
    private let random: @Sendable (ClosedRange<Int64>) -> Int64

    /// - Parameters:
    ///   - base: the first ceiling (1 s).
    ///   - cap: the largest jittered delay (5 min).
    ///   - retryAfterCap: the longest `Retry-After` honoured (1 hour).
    ///   - random: picks a value in a range (tests make it predictable); a
    ///     value outside the range is clamped into it.
    public init(
        base: Duration = .seconds(1), cap: Duration = .seconds(300), retryAfterCap: Duration = .seconds(3600),
        random: @escaping @Sendable (ClosedRange<Int64>) -> Int64 = { Int64.random(in: $0) }
    ) {
        self.base = base
        self.cap = cap
        self.retryAfterCap = retryAfterCap
        self.random = random
    }

    /// The delay before the next attempt, in milliseconds (at least 1).
    /// - Parameters:
    ///   - attempt: attempts made so far (1 after the first); values below 1 count as 1.
    ///   - retryAfterSeconds: what the server asked for (`429`/`503 Retry-After`), if
    ///     anything; zero or negative is ignored, more than ``retryAfterCap`` is capped.
    /// - Returns: the delay.
    public func delayMilliseconds(afterAttempt attempt: Int, retryAfterSeconds: Int? = nil) -> Int64 {
        let baseMillis = max(1, Self.milliseconds(base))
        let capMillis = max(baseMillis, Self.milliseconds(cap))
        let doublings = min(max(attempt, 1) - 1, 40)
        // base << doublings only when it stays below the cap, so the shift cannot overflow.
        let ceiling = baseMillis > capMillis >> doublings ? capMillis : min(capMillis, baseMillis << doublings)
        var delay = max(1, min(ceiling, max(0, random(0...ceiling))))
        if let retryAfterSeconds, retryAfterSeconds > 0 {
            let limit = max(0, Self.milliseconds(retryAfterCap))
            let seconds = Int64(clamping: retryAfterSeconds)
            // Compare before multiplying: 10^16 s in milliseconds does not fit in Int64.
            let requested = seconds > limit / 1000 ? limit : seconds * 1000
            delay = max(delay, requested)
        }
        return delay
    }

    /// The delay before the next attempt (at least 1 ms), for `Task.sleep(for:)`.
    /// - Parameters:
    ///   - attempt: attempts made so far (1 after the first).
    ///   - retryAfterSeconds: what the server asked for, if anything (see
    ///     ``delayMilliseconds(afterAttempt:retryAfterSeconds:)``).
    /// - Returns: the delay.
    public func delay(afterAttempt attempt: Int, retryAfterSeconds: Int? = nil) -> Duration {
        .milliseconds(delayMilliseconds(afterAttempt: attempt, retryAfterSeconds: retryAfterSeconds))
    }

    /// A duration in whole milliseconds, clamped to `Int64` (a duration of
    /// `Int64.max` seconds would overflow when multiplied).
    static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, carry) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        if carry { return seconds < 0 ? .min : .max }
        return sum
    }
}
