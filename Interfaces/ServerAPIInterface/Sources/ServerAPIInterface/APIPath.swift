import WireContract

/// Builds request paths: ids are opaque text to the client, so each path
/// segment and query value is percent-encoded (RFC 3986 unreserved
/// characters stay as they are) and cannot change the path's shape.
///
/// The encoding is the wire contract's (`WirePath`), which every
/// ``APIRequest`` made from a `Route` uses; this name stays for callers
/// outside this repository.
public enum APIPath {
    /// One path segment or query value, percent-encoded.
    /// - Parameter value: the text.
    /// - Returns: the encoded text.
    public static func encode(_ value: String) -> String {
        WirePath.encode(value)
    }

    /// A path with a query made of `items` (nil values left out), each value encoded.
    /// - Parameters:
    ///   - path: the path, already encoded.
    ///   - items: names and values.
    /// - Returns: `path?name=value&…`, or `path` when no item has a value.
    public static func query(_ path: String, _ items: [(String, String?)]) -> String {
        WirePath.query(path, items)
    }
}
