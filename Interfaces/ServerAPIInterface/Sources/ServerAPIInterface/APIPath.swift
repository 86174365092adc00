/// Builds request paths: ids are opaque text to the client, so each path
/// segment and query value is percent-encoded (RFC 3986 unreserved
/// characters stay as they are) and cannot change the path's shape.
public enum APIPath {
    /// One path segment or query value, percent-encoded.
    /// - Parameter value: the text.
    /// - Returns: the encoded text.
    public static func encode(_ value: String) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
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
