/// Sends HTTP requests: the one thing the modules that talk to a server
/// (sessions, uploads, messages) need from a transport.
///
/// Implementations are safe to use from many tasks at once, reuse
/// connections, stream file-region bodies from disk without loading them,
/// and never block the caller's thread for the length of a transfer.
/// A response of any status is a response: a `404` or `500` is returned,
/// not thrown. Only a transfer that did not end with a complete response
/// (no connection, a timeout, a cut connection, cancellation, an unreadable
/// body file) throws, with a case a caller can act on.
public protocol HTTPClient: Sendable {
    /// Sends one request and collects its response.
    /// - Parameters:
    ///   - request: what to send. A ``HTTPRequestBody/file(_:)`` body is a
    ///     description that the client opens when the transfer starts, so
    ///     the same request may be sent again.
    ///   - options: timeouts, progress, cancellation and limits for this request.
    /// - Returns: the response (status, headers, body).
    /// - Throws: ``HTTPClientError`` when no complete response arrived;
    ///   ``HTTPClientError/cancelled`` when the task or
    ///   ``HTTPRequestOptions/cancellation`` was cancelled.
    func send(_ request: HTTPClientRequest, options: HTTPRequestOptions) async throws(HTTPClientError)
        -> HTTPClientResponse
}

extension HTTPClient {
    /// Sends one request with the default options (``HTTPRequestOptions/init(timeouts:maxResponseBodyBytes:redirectLimit:progress:cancellation:)``).
    /// - Parameter request: what to send.
    /// - Returns: the response.
    /// - Throws: ``HTTPClientError`` when no complete response arrived.
    public func send(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientResponse {
        try await send(request, options: HTTPRequestOptions())
    }
}
