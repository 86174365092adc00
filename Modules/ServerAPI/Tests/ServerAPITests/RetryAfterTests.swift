import ShareKitServerAPIInterface
import Testing

@Suite("Retry-After: seconds or a date, never negative, at most an hour")
struct RetryAfterTests {
    @Test("seconds, with optional whitespace")
    func seconds() {
        #expect(RetryAfter.parse("7", now: 0) == .seconds(7))
        #expect(RetryAfter.parse(" 7\t", now: 0) == .seconds(7))
        #expect(RetryAfter.parse("0", now: 0) == .zero)
        #expect(RetryAfter.parse("0007", now: 0) == .seconds(7))
    }

    @Test("huge values are cut to an hour without overflow")
    func capped() {
        #expect(RetryAfter.parse("3601", now: 0) == .seconds(3600))
        #expect(RetryAfter.parse("10000000000000000", now: 0) == RetryAfter.maximum)
        #expect(RetryAfter.parse(String(repeating: "9", count: 400), now: 0) == RetryAfter.maximum)
    }

    @Test("an HTTP date counts from now; a past date is no wait")
    func date() {
        // Sun, 06 Nov 1994 08:49:37 GMT is 784111777.
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:49:37 GMT", now: 784_111_770) == .seconds(7))
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:49:37 GMT", now: 784_111_800) == .zero)
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:49:37 GMT", now: 0) == RetryAfter.maximum)
    }

    @Test("anything else is no value", arguments: ["", "-1", "7.5", "soon", "Sun, 06 Nov 1994 25:49:37 GMT", "1e3"])
    func garbage(_ value: String) {
        #expect(RetryAfter.parse(value, now: 0) == nil)
    }
}
