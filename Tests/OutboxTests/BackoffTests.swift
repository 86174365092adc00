import Outbox
import Testing

/// The retry delays: exponential, capped, fully jittered, never below Retry-After.
@Suite("outbox: backoff with full jitter")
struct BackoffTests {
    @Test("the ceiling doubles from 1 s per attempt up to 5 minutes")
    func ceilingDoubles() {
        let ceiling = BackoffPolicy(random: { $0.upperBound })
        #expect(
            (1...6).map { ceiling.delayMilliseconds(afterAttempt: $0) } == [1000, 2000, 4000, 8000, 16_000, 32_000])
        #expect(ceiling.delayMilliseconds(afterAttempt: 9) == 256_000)
        #expect(ceiling.delayMilliseconds(afterAttempt: 10) == 300_000)
        #expect(ceiling.delayMilliseconds(afterAttempt: 1000) == 300_000)
    }

    @Test("the jitter spans zero to the ceiling; Retry-After is a lower bound")
    func jitterAndRetryAfter() {
        let floor = BackoffPolicy(random: { $0.lowerBound })
        #expect(floor.delayMilliseconds(afterAttempt: 5) == 1, "full jitter may retry at once (1 ms)")
        #expect(floor.delayMilliseconds(afterAttempt: 5, retryAfterSeconds: 30) == 30_000)
        let ceiling = BackoffPolicy(random: { $0.upperBound })
        #expect(ceiling.delayMilliseconds(afterAttempt: 8, retryAfterSeconds: 30) == 128_000)
        let ranges = (1...200).map { _ in BackoffPolicy().delayMilliseconds(afterAttempt: 3) }
        #expect(ranges.allSatisfy { (1...4000).contains($0) })
        #expect(Set(ranges).count > 50, "the delays are spread, not one value")
    }
}
