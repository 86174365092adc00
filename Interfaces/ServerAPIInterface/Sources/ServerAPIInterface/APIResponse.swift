public import ShareKitHTTPTypes

/// A successful (`2xx`) answer of the server's API.
public struct APIResponse: Sendable, CustomStringConvertible {
    /// The status (`200`, `201`, `202`, `204`).
    public var status: Int
    /// The header fields.
    public var headers: HTTPFields
    /// The body (JSON for every answer that has one).
    public var body: [UInt8]

    /// Makes an answer; clients and fakes build them.
    /// - Parameters:
    ///   - status: the status.
    ///   - headers: the header fields.
    ///   - body: the body.
    public init(status: Int, headers: HTTPFields = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of a header field (names compared without regard to case).
    /// - Parameter name: the field's name.
    /// - Returns: its value, nil when absent.
    public func header(_ name: String) -> String? { headers[name] }

    /// Decodes the body as the route's answer type.
    /// - Parameters:
    ///   - type: the answer type.
    ///   - operation: the operation's name, for the message.
    /// - Returns: the answer.
    /// - Throws: ``APIError/retryable(_:)`` with
    ///   ``APIRetry/Kind/unreadableAnswer(status:)``: a server that answers
    ///   success with a body that is not the route's type is misbehaving
    ///   now, and a later attempt may find it repaired.
    public func decode<Answer: Decodable>(_ type: Answer.Type, operation: String) throws(APIError) -> Answer {
        do {
            return try APIJSON.decode(Answer.self, from: body)
        } catch {
            throw .retryable(
                APIRetry(
                    kind: .unreadableAnswer(status: status),
                    message: "\(operation) answered \(status) with a body that is not its answer"))
        }
    }

    /// The status and body size, never a header value or the body.
    public var description: String { "\(status), \(body.count) bytes" }
}
