public import ShareKitHTTPTypes

/// An HTTP request to send with an ``HTTPClient``.
///
/// A value: sending it does not consume it, so it can be sent again (a
/// ``HTTPRequestBody/file(_:)`` body is re-opened each time).
public struct HTTPClientRequest: Hashable, Sendable, CustomStringConvertible {
    /// The method.
    public var method: HTTPRequestMethod
    /// The absolute `http` or `https` URL.
    public var url: String
    /// The header fields. Clients add `Host` and `Content-Length` themselves;
    /// set `Content-Type` when there is a body.
    public var headers: HTTPFields
    /// The body.
    public var body: HTTPRequestBody

    /// Makes a request.
    /// - Parameters:
    ///   - method: the method.
    ///   - url: the absolute URL.
    ///   - headers: the header fields.
    ///   - body: the body.
    public init(
        method: HTTPRequestMethod = .get, url: String, headers: HTTPFields = [:], body: HTTPRequestBody = .empty
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// Method, URL without its query, and header names: header values and
    /// queries can carry credentials, so a request never prints them.
    public var description: String {
        let withoutQuery = url.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return "\(method) \(withoutQuery) \(headers)"
    }
}
