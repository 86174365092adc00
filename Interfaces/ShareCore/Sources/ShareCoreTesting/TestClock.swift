public import Foundation
public import ShareKitCore
import Synchronization

/// A clock a test moves by hand: the one test clock, read as a `Date`, as
/// Unix milliseconds or as a ``ShareKitCore/UnixClock``.
///
/// ```swift
/// let clock = TestClock(Date(timeIntervalSince1970: 1_700_000_000))
/// let inbox = makeInbox(clock: clock.unixClock)
/// clock.advance(seconds: 3600)
/// ```
public final class TestClock: Sendable {
    /// Unix milliseconds: exact for both readings, with no round trip through `Double`.
    private let current: Mutex<Int64>

    /// Makes a clock standing at `start`.
    /// - Parameter start: the first time it answers; by default the real time now.
    public init(_ start: Date = Date()) { current = Mutex(UnixClock.milliseconds(of: start)) }

    /// The time it stands at.
    public var now: Date { Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000) }

    /// The time it stands at in Unix milliseconds.
    public var milliseconds: Int64 { current.withLock { $0 } }

    /// A source of Unix milliseconds reading this clock, for code that takes one.
    public var millisecondsSource: @Sendable () -> Int64 { { self.milliseconds } }

    /// A ``ShareKitCore/UnixClock`` reading this clock.
    public var unixClock: UnixClock { UnixClock { self.now } }

    /// Moves the clock forward (or back, with a negative count).
    /// - Parameter seconds: how far.
    public func advance(seconds: Int) { current.withLock { $0 += Int64(seconds) * 1000 } }

    /// Moves the clock to a time in Unix milliseconds when that is later than now.
    /// - Parameter milliseconds: the time.
    public func advance(toMilliseconds milliseconds: Int64) {
        current.withLock { $0 = max($0, milliseconds) }
    }
}
