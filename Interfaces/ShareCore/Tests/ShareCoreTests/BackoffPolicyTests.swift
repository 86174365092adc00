import ShareKitCore
import Testing

/// The retry delays: exponential, capped, fully jittered, never below
/// Retry-After, and Retry-After itself capped, with no input that traps.
@Suite("share core: backoff with full jitter")
struct BackoffPolicyTests {
    @Test("the ceiling doubles from 1 s per attempt up to 5 minutes")
    func ceilingDoubles() {
        let ceiling = BackoffPolicy(random: { $0.upperBound })
        #expect(
            (1...6).map { ceiling.delayMilliseconds(afterAttempt: $0) } == [1000, 2000, 4000, 8000, 16_000, 32_000])
        #expect(ceiling.delayMilliseconds(afterAttempt: 9) == 256_000)
        #expect(ceiling.delayMilliseconds(afterAttempt: 10) == 300_000)
        #expect(ceiling.delayMilliseconds(afterAttempt: 1000) == 300_000)
        #expect(ceiling.delay(afterAttempt: 3) == .seconds(4))
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

    @Test("a huge Retry-After is capped at an hour, without a trap")
    func retryAfterCapped() {
        let floor = BackoffPolicy(random: { $0.lowerBound })
        #expect(floor.delayMilliseconds(afterAttempt: 1, retryAfterSeconds: 10_000_000_000_000_000) == 3_600_000)
        #expect(floor.delayMilliseconds(afterAttempt: 1, retryAfterSeconds: Int.max) == 3_600_000)
        #expect(floor.delayMilliseconds(afterAttempt: 1, retryAfterSeconds: 3600) == 3_600_000)
        #expect(floor.delayMilliseconds(afterAttempt: 1, retryAfterSeconds: 3599) == 3_599_000)
        #expect(floor.delayMilliseconds(afterAttempt: 1, retryAfterSeconds: 0) == 1, "zero asks for nothing")
        #expect(floor.delayMilliseconds(afterAttempt: 1, retryAfterSeconds: -5) == 1, "negative is ignored")
        let short = BackoffPolicy(retryAfterCap: .seconds(10), random: { $0.lowerBound })
        #expect(short.delayMilliseconds(afterAttempt: 1, retryAfterSeconds: 600) == 10_000)
    }

    @Test("extreme attempts, durations and random answers stay in bounds")
    func extremeInputs() {
        let wild = BackoffPolicy(
            base: .seconds(Int64.max), cap: .seconds(Int64.max), retryAfterCap: .seconds(Int64.max),
            random: { $0.upperBound })
        #expect(wild.delayMilliseconds(afterAttempt: Int.max) == Int64.max)
        #expect(wild.delayMilliseconds(afterAttempt: 1, retryAfterSeconds: Int.max) == Int64.max)
        let negative = BackoffPolicy(
            base: .seconds(-5), cap: .seconds(Int64.min), retryAfterCap: .seconds(-1), random: { $0.upperBound })
        #expect(negative.delayMilliseconds(afterAttempt: Int.min) == 1)
        #expect(negative.delayMilliseconds(afterAttempt: 3, retryAfterSeconds: 60) == 1)
        let liar = BackoffPolicy(random: { _ in Int64.max })
        #expect(liar.delayMilliseconds(afterAttempt: 2) == 2000, "an answer above the range is clamped")
        let negativeLiar = BackoffPolicy(random: { _ in Int64.min })
        #expect(negativeLiar.delayMilliseconds(afterAttempt: 2) == 1, "an answer below the range is clamped")
    }
}
