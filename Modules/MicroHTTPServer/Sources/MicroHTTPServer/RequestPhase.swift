import ShareKitHTTPServerInterface
import ShareKitHTTPTypes

/// Where a request is between its head and its response.
enum RequestPhase {
    /// The request line arrived; the head is not complete yet.
    case awaitingHead
    /// Collecting the body in memory, up to a limit.
    case buffering(maxBytes: Int)
    /// Handing the body to a sink.
    case streaming(any HTTPBodySink)
    /// The request was refused midway; the rest of the body is read and
    /// dropped so this response can still be sent.
    case discarding(HTTPResponse)
    /// A response is queued.
    case responded
}
