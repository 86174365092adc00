/// Long texts of a notification cut to a size a desktop can show. A push
/// or a preview may carry a field of any length (a 200 KB thread id); one
/// argument of a program may not exceed 128 KiB on Linux, so an uncut field
/// meant that `notify-send` could not even start and nothing was shown.
enum NotificationText {
    /// What a cut text ends with.
    static let ellipsis = "…"

    /// The text when it fits in `maxBytes` UTF-8 bytes; else its longest
    /// prefix of whole characters (grapheme clusters, never part of a UTF-8
    /// sequence or of an emoji) that fits together with ``ellipsis``,
    /// followed by it.
    /// - Parameters:
    ///   - text: the text.
    ///   - maxBytes: the most UTF-8 bytes of the result (at least the ellipsis's 3).
    /// - Returns: the text, or its cut prefix and the ellipsis.
    static func cut(_ text: String, maxBytes: Int) -> String {
        guard text.utf8.count > maxBytes else { return text }
        let budget = max(0, maxBytes - ellipsis.utf8.count)
        var used = 0
        var end = text.startIndex
        for index in text.indices {
            let next = text.index(after: index)
            let size = text.utf8.distance(from: index, to: next)
            guard used + size <= budget else { break }
            used += size
            end = next
        }
        return String(text[..<end]) + ellipsis
    }
}
