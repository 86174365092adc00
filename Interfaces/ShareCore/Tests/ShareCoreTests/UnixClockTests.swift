import Foundation
import ShareKitCore
import Testing

/// The one clock: seconds and milliseconds rounded down, injectable, and
/// conversions that clamp instead of trapping.
@Suite("share core: the Unix clock")
struct UnixClockTests {
    @Test("a fixed clock answers its time in seconds and milliseconds")
    func fixed() {
        let clock = UnixClock.fixed(Date(timeIntervalSince1970: 1_796_094_000.7519))
        #expect(clock.seconds() == 1_796_094_000)
        #expect(clock.milliseconds() == 1_796_094_000_751)
        #expect(clock.date() == Date(timeIntervalSince1970: 1_796_094_000.7519))
    }

    @Test("an injected source is read on every call")
    func injected() {
        let now = LockedDate(Date(timeIntervalSince1970: 10))
        let clock = UnixClock { now.value }
        #expect(clock.seconds() == 10)
        now.value = Date(timeIntervalSince1970: 12.5)
        #expect(clock.milliseconds() == 12_500)
    }

    @Test("the system clock is the wall clock")
    func system() {
        let before = Int64(Date().timeIntervalSince1970 * 1000)
        let now = UnixClock.system.milliseconds()
        let after = Int64(Date().timeIntervalSince1970 * 1000)
        #expect((before...after).contains(now))
        #expect(UnixClock.system.seconds() >= before / 1000)
    }

    @Test("times before 1970 round down; impossible ones clamp")
    func edges() {
        #expect(UnixClock.seconds(of: Date(timeIntervalSince1970: -0.5)) == -1)
        #expect(UnixClock.milliseconds(of: Date(timeIntervalSince1970: -0.0005)) == -1)
        #expect(UnixClock.milliseconds(of: Date(timeIntervalSince1970: 1e300)) == Int64.max)
        #expect(UnixClock.seconds(of: Date(timeIntervalSince1970: -1e300)) == Int64.min)
        #expect(UnixClock.milliseconds(of: Date(timeIntervalSince1970: .nan)) == 0)
    }
}

/// A date tests can change while a clock reads it.
private final class LockedDate: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Date
    init(_ date: Date) { stored = date }
    var value: Date {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
