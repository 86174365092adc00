/// The server's refusal of a call: the status and its problem document
/// (`application/problem+json`: `code`, `detail`).
public struct APIRefusal: Hashable, Sendable, CustomStringConvertible {
    /// The operation that was refused.
    public var operation: String
    /// The status (`403`, `404`, `409`, `413`, `415`, `422`…).
    public var status: Int
    /// The problem's `code`, or `http_<status>` when the body has none.
    public var code: String
    /// The problem's `detail` (else `title`), for a person; the server's words.
    public var message: String
    /// The body as it came (a problem document), for a caller that shows it
    /// as it is (`share debug get`). At most the response size limit.
    public var body: [UInt8]

    /// Makes a refusal.
    /// - Parameters:
    ///   - operation: the operation's name.
    ///   - status: the status.
    ///   - code: the problem code.
    ///   - message: the problem's text.
    ///   - body: the answer's body.
    public init(operation: String, status: Int, code: String, message: String, body: [UInt8] = []) {
        self.operation = operation
        self.status = status
        self.code = code
        self.message = message
        self.body = body
    }

    /// `<operation> was refused (<status> <code>): <message>`.
    public var description: String { "\(operation) was refused (\(status) \(code)): \(message)" }
}
