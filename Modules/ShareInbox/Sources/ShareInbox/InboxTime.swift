import Foundation

/// RFC 3339 times as the manifest and the quarantine record hold them
/// (`2026-12-01T03:00:00Z`, fractional seconds accepted when reading).
enum InboxTime {
    /// Parses `created_at`.
    /// - Returns: the time, or nil when it is not an RFC 3339 time.
    static func parse(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// Formats a time in UTC to the second.
    static func format(_ date: Date) -> String { date.formatted(Date.ISO8601FormatStyle()) }

    /// Whole seconds from `start` to `now`, never negative (a clock set back
    /// makes an entry new, not older than the universe).
    static func seconds(from start: Date, to now: Date) -> Int64 {
        max(0, Int64(now.timeIntervalSince(start).rounded(.down)))
    }

}
