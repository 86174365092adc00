/// How a response was obtained: for tests, benchmarks and diagnostics.
public struct HTTPTransferMetrics: Hashable, Sendable {
    /// The protocol version the exchange used: `HTTP/1.1`, `HTTP/2`, or
    /// `HTTP/1.0`; empty when unknown.
    public var httpVersion: String
    /// Whether the request went over a connection that an earlier request
    /// had opened (false when this request opened a new one).
    public var reusedConnection: Bool
    /// Request body bytes written to the connection.
    public var bodyBytesSent: UInt64
    /// From the start of the transfer to the end of the response.
    public var duration: Duration

    /// Makes metrics; clients fill them in (fakes may leave the defaults).
    /// - Parameters:
    ///   - httpVersion: the protocol version.
    ///   - reusedConnection: whether an existing connection was used.
    ///   - bodyBytesSent: request body bytes sent.
    ///   - duration: the transfer's duration.
    public init(
        httpVersion: String = "", reusedConnection: Bool = false, bodyBytesSent: UInt64 = 0,
        duration: Duration = .zero
    ) {
        self.httpVersion = httpVersion
        self.reusedConnection = reusedConnection
        self.bodyBytesSent = bodyBytesSent
        self.duration = duration
    }
}
