/// The link a notification's default action opens: the server's `web_url`
/// of the message, checked against the origin the push registration was
/// made with.
///
/// The value comes from a server answer, so it is hostile: a link that
/// could leave the server (another host, a protocol-relative `//host`, a
/// backslash some browsers read as a slash), use another scheme
/// (`javascript:`, `file:`), smuggle a space, a quote, a control character
/// or a non-ASCII look-alike into the opener's command line, or is not
/// well-formed percent-encoding is refused: the notification then has no
/// default action rather than a dangerous one.
public enum NotificationLink {
    /// The longest link accepted, in bytes (browsers and servers handle far
    /// more; a message's link is a few dozen).
    public static let maxLength = 2048

    /// The absolute link for a `web_url`, or nil when it is refused.
    /// - Parameters:
    ///   - webURL: the server's `web_url`: a path on its origin (`/web/...`),
    ///     or an absolute `http`/`https` URL on exactly that origin.
    ///   - origin: the origin the registration was made with (`http://host:port`).
    /// - Returns: `origin` followed by the path, or nil.
    public static func resolve(_ webURL: String, origin: String) -> String? {
        guard let origin = httpOrigin(origin), !webURL.isEmpty, webURL.utf8.count <= maxLength,
            isURICharacters(webURL)
        else { return nil }
        let path: Substring
        if webURL.hasPrefix("/") {
            path = Substring(webURL)
        } else if webURL.lowercased().hasPrefix(origin.lowercased() + "/") {
            path = webURL.dropFirst(origin.count)
        } else {
            return nil
        }
        // `//host` and `/\host` name another host; an origin-relative path never starts so.
        guard !path.hasPrefix("//") else { return nil }
        let link = origin + path
        return link.utf8.count <= maxLength ? link : nil
    }

    /// `scheme://authority` in lowercase when `origin` is an `http` or
    /// `https` origin without path, query, user information or fragment.
    static func httpOrigin(_ origin: String) -> String? {
        let lowered = origin.lowercased()
        let scheme = ["https://", "http://"].first { lowered.hasPrefix($0) }
        guard let scheme else { return nil }
        let authority = lowered.dropFirst(scheme.count)
        guard !authority.isEmpty, isURICharacters(String(authority)),
            !authority.contains(where: { "/?#@\\%".contains($0) })
        else { return nil }
        return lowered
    }

    /// Whether every byte is one RFC 3986 allows in a URI (unreserved,
    /// reserved, `%` followed by two hexadecimal digits): no space, quote,
    /// angle bracket, backslash, control character or non-ASCII byte.
    static func isURICharacters(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                break
            case _ where "-._~:/?#[]@!$&'()*+,;=".utf8.contains(byte):
                break
            case UInt8(ascii: "%"):
                guard index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else {
                    return false
                }
                index += 2
            default:
                return false
            }
            index += 1
        }
        return true
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            return true
        default:
            return false
        }
    }
}
