/// What the engine does with a request's body, chosen by the handler once it
/// has seen the head (``HTTPRequestHandler/prepare(for:)``).
public enum HTTPBodyDisposition {
    /// Collect the body in memory, then call
    /// ``HTTPRequestHandler/respond(to:body:)`` with it. A body longer than
    /// `maxBytes` is answered with a 413 problem (`body_too_large`) without
    /// calling the handler again: before a byte is read when the request
    /// declares its `Content-Length`, else as soon as the limit is passed.
    /// Use 0 for requests that must not have a body.
    case buffer(maxBytes: Int)
    /// Hand each chunk of the body to `sink` as it arrives, never holding the
    /// body in memory; the sink's ``HTTPBodySink/finish()`` makes the
    /// response. The sink enforces its own size limit (it throws).
    case stream(any HTTPBodySink)
    /// Answer at once without reading the body (401, 404, 405, 413 from
    /// `Content-Length`…). A client that sent `Expect: 100-continue` is spared
    /// the upload; the engine closes the connection after the answer if a
    /// body was announced but not read.
    case reject(HTTPResponse)
}
