public import ShareKitHTTPInterface

/// How one call is sent, beyond the client's defaults.
public struct APICallOptions: Sendable {
    /// The time limits of each attempt; nil for the client's own.
    public var timeouts: HTTPTimeouts?
    /// The largest answer body accepted; nil for the transport's default (8 MiB).
    public var maxResponseBodyBytes: Int?
    /// Told how much of the body has been sent (upload parts).
    public var progress: (@Sendable (HTTPTransferProgress) -> Void)?
    /// Cancels the call from elsewhere; task cancellation works too.
    public var cancellation: HTTPCancellation?

    /// Makes options.
    /// - Parameters:
    ///   - timeouts: time limits, nil for the client's own.
    ///   - maxResponseBodyBytes: the answer body cap, nil for the default.
    ///   - progress: the progress function.
    ///   - cancellation: a cancellation handle.
    public init(
        timeouts: HTTPTimeouts? = nil, maxResponseBodyBytes: Int? = nil,
        progress: (@Sendable (HTTPTransferProgress) -> Void)? = nil, cancellation: HTTPCancellation? = nil
    ) {
        self.timeouts = timeouts
        self.maxResponseBodyBytes = maxResponseBodyBytes
        self.progress = progress
        self.cancellation = cancellation
    }
}
