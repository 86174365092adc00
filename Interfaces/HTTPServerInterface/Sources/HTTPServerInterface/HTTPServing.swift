/// Starting and stopping an HTTP server engine. The handler and the
/// ``HTTPServerConfiguration`` are given to the engine when it is made; a
/// composition root then needs only this protocol to run it.
public protocol HTTPServing: AnyObject, Sendable {
    /// Binds the address and starts serving. Connections are accepted once
    /// this returns.
    /// - Parameters:
    ///   - host: a numeric IPv4 or IPv6 address (`127.0.0.1`, `::1`,
    ///     `0.0.0.0`), or `localhost` for `127.0.0.1`.
    ///   - port: the TCP port; 0 lets the system pick a free one.
    /// - Returns: the bound port (the chosen one when `port` was 0).
    /// - Throws: ``HTTPServerError`` when the server is already running, the
    ///   address is not numeric, or the engine cannot start (address in
    ///   use, unusable TLS credentials).
    func start(host: String, port: Int) throws(HTTPServerError) -> Int

    /// The bound port while the server runs, else nil.
    var boundPort: Int? { get }

    /// Stops gracefully, blocking until done: accepts no more connections
    /// (new ones are refused), tells the handler
    /// (``HTTPRequestHandler/serverWillStop()``), lets the requests in flight
    /// finish for up to `gracePeriod`, then closes every connection. Streamed
    /// bodies still arriving then are aborted (``HTTPBodyAbortReason/serverStopped``).
    /// A handler call still running after the grace period cannot be
    /// interrupted; `stop` returns once it does. Call it from any thread but
    /// an engine thread (a handler must not stop its own server). Stopping a
    /// server that is not running does nothing; it may be started again.
    /// - Parameter gracePeriod: the longest wait for requests in flight.
    func stop(gracePeriod: Duration)
}
