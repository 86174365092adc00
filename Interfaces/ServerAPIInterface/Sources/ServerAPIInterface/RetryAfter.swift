/// Reads the `Retry-After` header field (RFC 9110, section 10.2.3): a
/// number of seconds or an HTTP date, turned into a wait that is never
/// negative and never longer than ``maximum``.
public enum RetryAfter {
    /// The longest wait a server can ask for: one hour. A larger value
    /// (a mistake, or a hostile server's way to stall every send) is cut to it.
    public static let maximum: Duration = .seconds(3600)

    /// The wait a field value asks for.
    /// - Parameters:
    ///   - value: the field value, e.g. `7` or `Sun, 06 Nov 1994 08:49:37 GMT`.
    ///   - now: the current Unix time in seconds (for a date).
    /// - Returns: the wait, at most ``maximum``; nil when the value is neither form.
    public static func parse(_ value: String, now: Int64) -> Duration? {
        let text = value.trimmingSpaces
        let cap = maximum.components.seconds
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            // Digits only: any length is accepted and capped, without overflow.
            let digits = text.drop(while: { $0 == "0" })
            guard digits.count <= 18, let seconds = Int64(digits.isEmpty ? "0" : String(digits)) else {
                return maximum
            }
            return .seconds(min(seconds, cap))
        }
        guard let date = HTTPDate.parse(text) else { return nil }
        return .seconds(max(0, min(date - now, cap)))
    }
}

/// The IMF-fixdate form of an HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`),
/// the one form senders must use.
enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Unix seconds of an IMF-fixdate, or nil when the text is not one.
    static func parse(_ text: String) -> Int64? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","), parts[5] == "GMT",
            let day = Int64(parts[1]), parts[1].count == 2, (1...31).contains(day),
            let monthIndex = months.firstIndex(of: String(parts[2])),
            let year = Int64(parts[3]), parts[3].count == 4, year >= 1970
        else { return nil }
        let clock = parts[4].split(separator: ":")
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }), let hour = Int64(clock[0]),
            let minute = Int64(clock[1]), let second = Int64(clock[2]), hour < 24, minute < 60, second < 61
        else { return nil }
        return daysFromCivil(year: year, month: Int64(monthIndex + 1), day: day) * 86_400 + hour * 3600 + minute * 60
            + second
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs (the field's optional whitespace).
    fileprivate var trimmingSpaces: String {
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }),
            let last = bytes.lastIndex(where: { $0 != 0x20 && $0 != 0x09 })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
