/// Why a streamed body ended before it was complete (``HTTPBodySink/abort(_:)``).
public enum HTTPBodyAbortReason: Hashable, Sendable, CustomStringConvertible {
    /// The client closed the connection or it broke mid-body.
    case clientDisconnected
    /// The client sent nothing for longer than the idle timeout.
    case timedOut
    /// The server stopped before the body was complete.
    case serverStopped
    /// The sink's own ``HTTPBodySink/write(_:)`` threw.
    case sinkFailed

    /// A few words for logs.
    public var description: String {
        switch self {
        case .clientDisconnected: return "client disconnected"
        case .timedOut: return "timed out"
        case .serverStopped: return "server stopped"
        case .sinkFailed: return "sink failed"
        }
    }
}
