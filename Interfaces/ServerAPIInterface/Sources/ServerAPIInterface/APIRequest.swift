public import ShareKitHTTPInterface
public import ShareKitHTTPTypes

/// One call of the server's API: the operation's name (for messages), the
/// method, the path below the origin and the body. A value: it can be sent
/// again (a file-region body is opened anew each time).
public struct APIRequest: Sendable, CustomStringConvertible {
    /// The operation's name in the API document (`createMessage`,
    /// `uploadPart 3`), used in error messages and logs.
    public var operation: String
    /// The method.
    public var method: HTTPRequestMethod
    /// The path with its query, percent-encoded (`WirePath` of the wire contract), starting with `/`.
    public var path: String
    /// Header fields besides the ones the client sets (`Authorization`, `DPoP`).
    public var headers: HTTPFields
    /// The body.
    public var body: HTTPRequestBody

    /// Makes a request.
    /// - Parameters:
    ///   - operation: the operation's name.
    ///   - method: the method (`GET` unless given).
    ///   - path: the path and query below the origin.
    ///   - headers: extra header fields.
    ///   - body: the body.
    public init(
        _ operation: String, method: HTTPRequestMethod = .get, path: String, headers: HTTPFields = [:],
        body: HTTPRequestBody = .empty
    ) {
        self.operation = operation
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        if !self.headers.contains("Accept") { self.headers.set("Accept", "application/json") }
    }

    /// Makes a request with a JSON body encoded from `body`.
    /// - Parameters:
    ///   - operation: the operation's name.
    ///   - method: the method.
    ///   - path: the path and query below the origin.
    ///   - body: the body's value.
    /// - Throws: ``APIError/failed(_:)`` when the value cannot be encoded
    ///   (a number that is not finite).
    public init<Body: Encodable>(_ operation: String, method: HTTPRequestMethod, path: String, json body: Body)
        throws(APIError)
    {
        let bytes: [UInt8]
        do {
            bytes = try APIJSON.encode(body)
        } catch {
            throw .failed(.invalidRequest("the \(operation) body cannot be encoded"))
        }
        self.init(
            operation, method: method, path: path, headers: ["Content-Type": "application/json"], body: .bytes(bytes))
    }

    /// The operation, method and path without its query (a query may carry
    /// a cursor or an id a log need not keep).
    public var description: String {
        let withoutQuery = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return "\(operation) (\(method) \(withoutQuery))"
    }
}
