public import Foundation

/// The one source of "now" as Unix time: whole seconds (the unit of token
/// lifetimes and DPoP `iat`) and milliseconds (the unit of the outbox and of
/// UUIDv7), both rounded down.
///
/// Code that needs the time takes a clock instead of calling `Date()` so
/// tests can stop time, step it or move it backwards. The conversions never
/// trap: a date too far from 1970 for `Int64` is clamped, and a NaN date
/// reads as 0.
public struct UnixClock: Sendable {
    private let now: @Sendable () -> Date

    /// A clock over any source of dates (tests pass a fixed or stepping one).
    /// - Parameter now: returns the current date each time it is called.
    public init(_ now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// The system's wall clock.
    public static let system = UnixClock { Date() }

    /// A clock that always answers `date`, for tests.
    /// - Parameter date: the time it stands at.
    /// - Returns: the stopped clock.
    public static func fixed(_ date: Date) -> UnixClock {
        UnixClock { date }
    }

    /// The current date.
    public func date() -> Date { now() }

    /// The current Unix time in whole seconds, rounded down.
    public func seconds() -> Int64 { Self.seconds(of: now()) }

    /// The current Unix time in milliseconds, rounded down.
    public func milliseconds() -> Int64 { Self.milliseconds(of: now()) }

    /// A date as Unix seconds, rounded down; clamped to `Int64`'s range
    /// rather than trapping, NaN read as 0.
    /// - Parameter date: the date.
    /// - Returns: whole seconds since 1970-01-01T00:00:00Z.
    public static func seconds(of date: Date) -> Int64 {
        clampedInt64(date.timeIntervalSince1970.rounded(.down))
    }

    /// A date as Unix milliseconds, rounded down; clamped to `Int64`'s range
    /// rather than trapping, NaN read as 0.
    /// - Parameter date: the date.
    /// - Returns: milliseconds since 1970-01-01T00:00:00Z.
    public static func milliseconds(of date: Date) -> Int64 {
        clampedInt64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// `Int64(value)` without the trap for values it cannot hold.
    private static func clampedInt64(_ value: Double) -> Int64 {
        if value.isNaN { return 0 }
        // 2^63 is exactly representable; anything at or beyond it does not fit.
        if value >= 9_223_372_036_854_775_808.0 { return .max }
        if value < -9_223_372_036_854_775_808.0 { return .min }
        return Int64(value)
    }
}
