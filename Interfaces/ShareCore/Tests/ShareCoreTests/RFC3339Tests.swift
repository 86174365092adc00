import Foundation
import ShareKitCore
import Testing

/// The one RFC 3339 formatter and parser: UTC output, offsets and fractions
/// on input, garbage refused.
@Suite("share core: RFC 3339 timestamps")
struct RFC3339Tests {
    @Test("formats UTC to the second or the millisecond, rounding down")
    func formats() {
        let date = Date(timeIntervalSince1970: 1_796_094_000.2509)
        #expect(RFC3339.string(date) == "2026-12-01T03:00:00Z")
        #expect(RFC3339.string(date, precision: .milliseconds) == "2026-12-01T03:00:00.250Z")
        #expect(RFC3339.string(unixSeconds: 0) == "1970-01-01T00:00:00Z")
        #expect(RFC3339.string(unixMilliseconds: -1) == "1969-12-31T23:59:59.999Z")
        #expect(RFC3339.string(unixSeconds: 951_782_400) == "2000-02-29T00:00:00Z", "a leap day")
        #expect(RFC3339.string(unixMilliseconds: 4_107_542_399_999) == "2100-02-28T23:59:59.999Z")
    }

    @Test("out-of-range times are clamped, never trapping")
    func clamps() {
        #expect(RFC3339.string(unixSeconds: Int64.max) == "9999-12-31T23:59:59Z")
        #expect(RFC3339.string(unixSeconds: Int64.min) == "0000-01-01T00:00:00Z")
        #expect(RFC3339.string(Date.distantFuture.addingTimeInterval(1e300)) == "9999-12-31T23:59:59Z")
        #expect(RFC3339.string(Date(timeIntervalSince1970: .nan)) == "1970-01-01T00:00:00Z")
    }

    @Test("round trips, with and without fractional seconds")
    func roundTrips() throws {
        for millis: Int64 in [0, 1, 999, 1_796_094_000_250, -62_167_219_200_000, 253_402_300_799_999, -1] {
            let text = RFC3339.string(unixMilliseconds: millis)
            #expect(RFC3339.unixMilliseconds(text) == millis, "\(text)")
        }
        for seconds: Int64 in [0, 86_399, 1_796_094_000, 4_102_444_800] {
            let text = RFC3339.string(unixSeconds: seconds)
            #expect(RFC3339.date(text) == Date(timeIntervalSince1970: TimeInterval(seconds)), "\(text)")
        }
        let parsed = try #require(RFC3339.date("2026-12-01T03:00:00.5Z"))
        #expect(parsed.timeIntervalSince1970 == 1_796_094_000.5)
        #expect(RFC3339.unixMilliseconds("2026-12-01T03:00:00.123456789Z") == 1_796_094_000_123)
        #expect(RFC3339.unixMilliseconds("2026-12-01T03:00:00.05Z") == 1_796_094_000_050)
    }

    @Test("offsets move the time to UTC; lower-case t and z are accepted")
    func offsets() {
        let utc = RFC3339.unixMilliseconds("2026-12-01T03:00:00Z")
        #expect(utc == 1_796_094_000_000)
        #expect(RFC3339.unixMilliseconds("2026-12-01T04:30:00+01:30") == utc)
        #expect(RFC3339.unixMilliseconds("2026-11-30T22:00:00-05:00") == utc)
        #expect(RFC3339.unixMilliseconds("2026-12-01T03:00:00-00:00") == utc)
        #expect(RFC3339.unixMilliseconds("2026-12-01t03:00:00z") == utc)
        #expect(RFC3339.unixMilliseconds("2026-12-01T05:00:00.750+02:00") == 1_796_094_000_750)
    }

    @Test(
        "garbage is refused",
        arguments: [
            "", "garbage", "2026-12-01", "2026-12-01T03:00:00", "2026-12-01 03:00:00Z", "2026-13-01T03:00:00Z",
            "2026-00-01T03:00:00Z", "2026-02-29T03:00:00Z", "2026-04-31T03:00:00Z", "2026-12-01T24:00:00Z",
            "2026-12-01T03:60:00Z", "2026-12-01T03:00:61Z", "2026-12-01T03:00:00.Z", "2026-12-01T03:00:00+1:00",
            "2026-12-01T03:00:00+24:00", "2026-12-01T03:00:00+01:60", "2026-12-01T03:00:00ZZ",
            "+2026-12-01T03:00:00Z", "2026-12-01T03:00:00Z ", "２０２６-12-01T03:00:00Z", "2026-12-01T03:00:00+0100",
            "2026-12-01T03:00:00." + String(repeating: "9", count: 80) + "Z",
        ])
    func refusesGarbage(_ text: String) {
        #expect(RFC3339.date(text) == nil)
        #expect(RFC3339.unixMilliseconds(text) == nil)
    }

    @Test("a leap year's 29 February parses; 2100's does not")
    func leapYears() {
        #expect(RFC3339.date("2028-02-29T00:00:00Z") != nil)
        #expect(RFC3339.date("2000-02-29T00:00:00Z") != nil)
        #expect(RFC3339.date("2100-02-29T00:00:00Z") == nil)
    }
}
