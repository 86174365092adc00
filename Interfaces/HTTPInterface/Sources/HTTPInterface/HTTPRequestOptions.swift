/// How one request is sent: time limits, progress, cancellation and limits.
public struct HTTPRequestOptions: Sendable {
    /// The default cap on a response body: responses here are small JSON
    /// documents, so anything larger is a mistake or an attack.
    public static let defaultMaxResponseBodyBytes = 8 * 1024 * 1024

    /// The time limits.
    public var timeouts: HTTPTimeouts
    /// The largest response body accepted; a larger one ends the request
    /// with ``HTTPClientError/responseTooLarge(limit:)`` without holding more in memory.
    public var maxResponseBodyBytes: Int
    /// How many redirects to follow; 0 (the default) returns a `3xx` as the
    /// response. Past the limit the request fails with
    /// ``HTTPClientError/tooManyRedirects(limit:)``. DPoP-signed requests
    /// never follow redirects: a proof is bound to one URL.
    public var redirectLimit: Int
    /// Called as the body is sent and once more when the response has
    /// arrived (see ``HTTPTransferProgress``). Called on the client's own
    /// thread, which serves other transfers too: keep it quick (store the
    /// value, resume a waiter), never block in it.
    public var progress: (@Sendable (HTTPTransferProgress) -> Void)?
    /// A handle that cancels the request from elsewhere; nil when only task
    /// cancellation is used.
    public var cancellation: HTTPCancellation?

    /// Makes options.
    /// - Parameters:
    ///   - timeouts: the time limits.
    ///   - maxResponseBodyBytes: the response body cap (8 MiB unless given).
    ///   - redirectLimit: redirects to follow (none unless given).
    ///   - progress: the progress function.
    ///   - cancellation: a cancellation handle.
    public init(
        timeouts: HTTPTimeouts = HTTPTimeouts(), maxResponseBodyBytes: Int = defaultMaxResponseBodyBytes,
        redirectLimit: Int = 0, progress: (@Sendable (HTTPTransferProgress) -> Void)? = nil,
        cancellation: HTTPCancellation? = nil
    ) {
        self.timeouts = timeouts
        self.maxResponseBodyBytes = maxResponseBodyBytes
        self.redirectLimit = redirectLimit
        self.progress = progress
        self.cancellation = cancellation
    }
}
