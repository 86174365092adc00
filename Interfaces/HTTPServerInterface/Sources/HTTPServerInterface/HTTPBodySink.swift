/// Receives a request body chunk by chunk (``HTTPBodyDisposition/stream(_:)``),
/// for bodies that must not sit in memory, such as upload parts written to
/// a file while their digest is computed.
///
/// The engine calls ``write(_:)`` for each chunk in order, then exactly one
/// of ``finish()`` (the body arrived whole) or ``abort(_:)`` (it never will),
/// exactly once, so cleanup belongs in those two. Calls never overlap, all
/// come from the engine's thread for the connection, and may block.
public protocol HTTPBodySink: AnyObject {
    /// Takes the next chunk of the body.
    /// - Parameter chunk: bytes valid only during the call (copy what you keep).
    ///   Chunks are bounded by the engine's per-connection buffer, not by
    ///   the body's size.
    /// - Throws: to refuse the rest of the body (too large, disk full…): an
    ///   ``HTTPProblem`` is answered as it is, any other error with a 500
    ///   problem. The engine then discards the rest of the body and calls
    ///   ``abort(_:)`` with ``HTTPBodyAbortReason/sinkFailed``.
    func write(_ chunk: UnsafeRawBufferPointer) throws

    /// The body is complete: store it and make the response.
    /// - Returns: the response to send.
    /// - Throws: an ``HTTPProblem`` to answer with it, any other error for a
    ///   500 problem. The sink cleans up after itself when it throws.
    func finish() throws -> HTTPResponse

    /// The body will not be completed: drop what was written (partial files).
    /// - Parameter reason: why.
    func abort(_ reason: HTTPBodyAbortReason)
}
