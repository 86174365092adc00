public import Foundation

/// RFC 3339 timestamps (`2026-12-01T03:00:00Z`, `2026-12-01T03:00:00.250Z`),
/// the one formatter and parser of every manifest, status answer, log line
/// and server response.
///
/// Written by hand on the proleptic Gregorian calendar: a new
/// `ISO8601DateFormatter` per call builds an ICU formatter (it once took
/// about 16 % of the reference server's CPU when creating messages), and a
/// shared one is not documented as thread-safe on Linux. Formatting is
/// always UTC with `Z`; parsing accepts any offset. Nothing here traps:
/// dates outside years 0000–9999 are clamped when formatting, and any text
/// that is not an RFC 3339 date-time parses as nil.
public enum RFC3339 {
    /// How much of the second a formatted timestamp shows.
    public enum Precision: Sendable {
        /// Whole seconds (`…T03:00:00Z`), rounded down.
        case seconds
        /// Three fractional digits (`…T03:00:00.250Z`), rounded down.
        case milliseconds
    }

    /// Unix milliseconds of 0000-01-01T00:00:00.000Z, the earliest time formatted.
    static let earliestMilliseconds: Int64 = -62_167_219_200_000
    /// Unix milliseconds of 9999-12-31T23:59:59.999Z, the latest time formatted.
    static let latestMilliseconds: Int64 = 253_402_300_799_999
    /// The longest text parsed; anything longer is garbage and is refused before any work.
    static let maximumLength = 64

    // MARK: - Formatting

    /// Formats a date in UTC.
    /// - Parameters:
    ///   - date: the time.
    ///   - precision: whole seconds (the default) or milliseconds.
    /// - Returns: the timestamp, e.g. `2026-12-01T03:00:00Z`.
    public static func string(_ date: Date, precision: Precision = .seconds) -> String {
        string(unixMilliseconds: UnixClock.milliseconds(of: date), precision: precision)
    }

    /// Formats Unix seconds in UTC, to the second.
    /// - Parameter unixSeconds: seconds since 1970-01-01T00:00:00Z.
    /// - Returns: the timestamp, e.g. `2026-12-01T03:00:00Z`.
    public static func string(unixSeconds: Int64) -> String {
        let (millis, overflow) = unixSeconds.multipliedReportingOverflow(by: 1000)
        let clamped = overflow ? (unixSeconds < 0 ? Int64.min : Int64.max) : millis
        return string(unixMilliseconds: clamped, precision: .seconds)
    }

    /// Formats Unix milliseconds in UTC.
    /// - Parameters:
    ///   - unixMilliseconds: milliseconds since 1970-01-01T00:00:00Z.
    ///   - precision: milliseconds (the default) or whole seconds.
    /// - Returns: the timestamp, e.g. `2026-12-01T03:00:00.250Z`.
    public static func string(unixMilliseconds: Int64, precision: Precision = .milliseconds) -> String {
        let millis = min(max(unixMilliseconds, earliestMilliseconds), latestMilliseconds)
        let (days, dayMillis) = floorDivide(millis, 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        let secondOfDay = dayMillis / 1000
        var text =
            pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(secondOfDay / 3600, 2) + ":"
            + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if precision == .milliseconds { text += "." + pad(dayMillis % 1000, 3) }
        return text + "Z"
    }

    // MARK: - Parsing

    /// Parses an RFC 3339 date-time: `YYYY-MM-DDTHH:MM:SS`, optional
    /// fractional seconds (any number of digits), then `Z` or `±HH:MM`.
    /// `t` and `z` may be lower case, as RFC 3339 allows.
    /// - Parameter text: the timestamp.
    /// - Returns: the time, or nil when `text` is not a valid RFC 3339 date-time
    ///   (a day that does not exist, an hour of 24, a missing offset, …).
    public static func date(_ text: String) -> Date? {
        guard let parsed = parse(text) else { return nil }
        return Date(timeIntervalSince1970: Double(parsed.seconds) + parsed.fraction)
    }

    /// Parses an RFC 3339 date-time into Unix milliseconds, digits beyond the
    /// third fractional one dropped (rounded down).
    /// - Parameter text: the timestamp.
    /// - Returns: milliseconds since 1970-01-01T00:00:00Z, or nil when `text`
    ///   is not a valid RFC 3339 date-time.
    public static func unixMilliseconds(_ text: String) -> Int64? {
        guard let parsed = parse(text) else { return nil }
        return parsed.seconds * 1000 + parsed.milliseconds
    }

    /// The parts of a parsed timestamp: whole Unix seconds (offset applied),
    /// the first three fractional digits, and the whole fraction.
    private struct Parsed {
        var seconds: Int64
        var milliseconds: Int64
        var fraction: Double
    }

    private static func parse(_ text: String) -> Parsed? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= maximumLength else { return nil }
        var index = 0
        func number(_ width: Int) -> Int64? {
            guard index + width <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[index..<(index + width)] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            index += width
            return value
        }
        func expect(_ allowed: String) -> Bool {
            guard index < bytes.count, allowed.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
            expect("Tt"), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
            let second = number(2)
        else { return nil }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), hour <= 23,
            minute <= 59, second <= 60
        else { return nil }
        var millis: Int64 = 0
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            var scale = 0.1
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                let digit = Int64(bytes[index] - UInt8(ascii: "0"))
                if digits < 3 { millis = millis * 10 + digit }
                fraction += Double(digit) * scale
                scale /= 10
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 3) { millis *= 10 }
        }
        var offset: Int64 = 0
        guard index < bytes.count else { return nil }
        if expect("Zz") {
            offset = 0
        } else {
            let sign: Int64 = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            guard expect("+-"), let offsetHours = number(2), expect(":"), let offsetMinutes = number(2),
                offsetHours <= 23, offsetMinutes <= 59
            else { return nil }
            offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
        }
        guard index == bytes.count else { return nil }
        let days = self.days(fromCivil: year, month, day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Parsed(seconds: seconds, milliseconds: millis, fraction: fraction)
    }

    // MARK: - Calendar

    private static func isLeap(_ year: Int64) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (the "days from
    /// civil" algorithm: years start in March so the leap day comes last).
    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day since 1970-01-01 (the inverse of
    /// ``days(fromCivil:_:_:)``).
    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Division rounding towards minus infinity, with a remainder in `0..<divisor`.
    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value / divisor
        let remainder = value % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
