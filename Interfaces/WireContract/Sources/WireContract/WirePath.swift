/// Percent-encoding of path segments and query values, as every client
/// sends them.
public enum WirePath {
    /// One path segment or query value, percent-encoded: every byte of its
    /// UTF-8 but the unreserved characters (RFC 3986: letters, digits,
    /// `-`, `.`, `_`, `~`) becomes `%XX` with upper-case hex digits.
    /// - Parameter value: the text.
    /// - Returns: the encoded text.
    public static func encode(_ value: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
                out.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 0x0F)]))
            }
        }
        return out
    }

    /// A path with a query made of `items` (nil values left out), each value encoded.
    /// - Parameters:
    ///   - path: the path, already encoded.
    ///   - items: names and values.
    /// - Returns: `path?name=value&…`, or `path` when no item has a value.
    public static func query(_ path: String, _ items: [(String, String?)]) -> String {
        let pairs = items.compactMap { name, value in value.map { "\(name)=\(encode($0))" } }
        return pairs.isEmpty ? path : path + "?" + pairs.joined(separator: "&")
    }
}
