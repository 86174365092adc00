public import ShareKitHTTPTypes

/// What an engine knows about a request before its body: the request line,
/// the header fields and where it came from.
///
/// The path is kept as sent (percent escapes included) so that an escaped
/// `/` inside an id can never be mistaken for a separator; route on
/// ``pathSegments``, which are split first and decoded afterwards.
public struct HTTPRequestHead: Sendable, CustomStringConvertible {
    /// The method.
    public var method: HTTPMethod
    /// The request target exactly as sent (origin form `/a/b?c=d`, or the
    /// absolute form `http://host/a/b?c=d` a client may send). Fixed once
    /// made, because the path and query below are parsed from it.
    public let target: String
    /// The path part of the target, percent escapes kept (`/files/a%2Fb`).
    public private(set) var path: String
    /// The path split at `/`, each segment percent-decoded
    /// (`/files/a%2Fb` → `["files", "a/b"]`); empty for `/`.
    public private(set) var pathSegments: [String]
    /// The query string after `?`, as sent; nil when the target has no `?`.
    public private(set) var rawQuery: String?
    /// The decoded query pairs, in order (see ``HTTPQueryItem/parse(_:)``).
    public private(set) var queryItems: [HTTPQueryItem]
    /// The protocol version as sent, for example `HTTP/1.1`.
    public var version: String
    /// The header fields.
    public var headers: HTTPFields
    /// The TCP peer, when the engine knows it.
    public var remoteAddress: HTTPRemoteAddress?
    /// Whether the request came over TLS (`https`).
    public var isSecure: Bool
    /// An id the engine gave this request, unique within the process; also
    /// sent back in the `X-Request-Id` response header and written to the
    /// request log, so a person can match a complaint to a log line.
    public var requestID: String

    /// Makes a request head and parses its target.
    /// - Parameters:
    ///   - method: the method.
    ///   - target: the request target as sent.
    ///   - version: the protocol version.
    ///   - headers: the header fields.
    ///   - remoteAddress: the TCP peer.
    ///   - isSecure: whether the connection uses TLS.
    ///   - requestID: the engine's id for the request.
    public init(
        method: HTTPMethod, target: String, version: String = "HTTP/1.1", headers: HTTPFields = [:],
        remoteAddress: HTTPRemoteAddress? = nil, isSecure: Bool = false, requestID: String = ""
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.remoteAddress = remoteAddress
        self.isSecure = isSecure
        self.requestID = requestID
        var origin = Substring(target)
        // Absolute form (RFC 9112 section 3.2.2): drop `scheme://authority`.
        if !origin.hasPrefix("/"), let schemeEnd = origin.firstRange(of: "://") {
            let afterAuthority = origin[schemeEnd.upperBound...]
            origin = afterAuthority.firstIndex(where: { $0 == "/" || $0 == "?" }).map { afterAuthority[$0...] } ?? "/"
            if origin.hasPrefix("?") { origin = "/" + origin }
        }
        if let question = origin.firstIndex(of: "?") {
            path = String(origin[..<question])
            let query = origin[origin.index(after: question)...]
            rawQuery = String(query)
            queryItems = HTTPQueryItem.parse(query)
        } else {
            path = String(origin)
            rawQuery = nil
            queryItems = []
        }
        pathSegments = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).map {
            PercentDecoding.decode($0, plusIsSpace: false)
        }
    }

    /// The first value of a query parameter.
    /// - Parameter name: the decoded parameter name (case-sensitive).
    /// - Returns: its value; nil when absent, or present without `=`.
    public func queryValue(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// Every value of a query parameter, in order (a bare name gives no value).
    /// - Parameter name: the decoded parameter name (case-sensitive).
    /// - Returns: the values.
    public func queryValues(_ name: String) -> [String] {
        queryItems.filter { $0.name == name }.compactMap(\.value)
    }

    /// Method, path and request id only: header values and the query can
    /// carry credentials, so a head never prints them.
    public var description: String { "\(method) \(path) (\(requestID))" }
}
