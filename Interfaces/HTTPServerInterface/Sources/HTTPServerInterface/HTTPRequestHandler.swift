/// The application side of an HTTP server: an engine calls it for every
/// request, in two steps so that bodies can be streamed.
///
/// 1. ``prepare(for:)`` with the head, before any of the body is read. The
///    handler routes, checks what it can (authentication, sizes) and answers
///    with a ``HTTPBodyDisposition``: buffer the body, stream it to a sink, or
///    reject the request at once.
/// 2. When the body is complete: ``respond(to:body:)`` for a buffered body,
///    or the sink's ``HTTPBodySink/finish()`` for a streamed one.
///
/// Engines call these on their own threads, one request per thread at a
/// time, and many requests at once; a call may block (SQLite, a long poll
/// waiting for events) without holding up other requests. A thrown
/// ``HTTPProblem`` is sent as it is; any other error becomes a 500
/// `internal_error` problem and is reported in the request log record.
public protocol HTTPRequestHandler: Sendable {
    /// Decides what happens to the body of a request.
    /// - Parameter head: the request line and header fields.
    /// - Returns: buffer, stream or reject.
    /// - Throws: an ``HTTPProblem`` to answer with it (same as
    ///   ``HTTPBodyDisposition/reject(_:)``), any other error for a 500.
    func prepare(for head: HTTPRequestHead) throws -> HTTPBodyDisposition

    /// Answers a request whose body was buffered (``HTTPBodyDisposition/buffer(maxBytes:)``).
    /// - Parameters:
    ///   - head: the request's head, as given to ``prepare(for:)``.
    ///   - body: the whole body (empty when there was none).
    /// - Returns: the response.
    /// - Throws: an ``HTTPProblem`` to answer with it, any other error for a 500.
    func respond(to head: HTTPRequestHead, body: [UInt8]) throws -> HTTPResponse

    /// The server has begun to stop (``HTTPServing/stop(gracePeriod:)``): it
    /// accepts no more connections and waits for the requests in flight.
    /// Wake requests that wait for something (long polls) so they can answer
    /// now instead of holding the shutdown. Called once, on the thread that
    /// called `stop`; the default does nothing.
    func serverWillStop()
}

extension HTTPRequestHandler {
    /// Does nothing: handlers without waiting requests need no signal.
    public func serverWillStop() {}
}
