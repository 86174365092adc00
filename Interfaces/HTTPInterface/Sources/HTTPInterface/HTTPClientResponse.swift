public import ShareKitHTTPTypes

/// The response to an ``HTTPClientRequest``: status, header fields, body.
///
/// Responses here are small (JSON documents, problem documents); the body is
/// held in memory up to ``HTTPRequestOptions/maxResponseBodyBytes``.
public struct HTTPClientResponse: Sendable, CustomStringConvertible {
    /// The status code (`200`, `401`…).
    public var status: Int
    /// The header fields of the final response (those of an interim `100
    /// Continue` or of a followed redirect are not kept), names compared
    /// without regard to case, repeated names kept line by line.
    public var headers: HTTPFields
    /// The body.
    public var body: [UInt8]
    /// How the response was obtained.
    public var metrics: HTTPTransferMetrics

    /// Makes a response; clients and fakes build them.
    /// - Parameters:
    ///   - status: the status code.
    ///   - headers: the header fields.
    ///   - body: the body.
    ///   - metrics: how it was obtained.
    public init(
        status: Int, headers: HTTPFields = [:], body: [UInt8] = [], metrics: HTTPTransferMetrics = HTTPTransferMetrics()
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.metrics = metrics
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200...299).contains(status) }

    /// Status, header names and body size: header values and bodies can
    /// carry credentials (token responses), so a response never prints them.
    public var description: String { "\(status) \(headers) \(body.count) bytes" }
}
