/// How a request ended, for the request log.
public enum HTTPRequestOutcome: Hashable, Sendable, CustomStringConvertible {
    /// The response was sent in full.
    case completed
    /// The client closed the connection, or it broke, before the exchange ended.
    case clientDisconnected
    /// The client was idle longer than the idle timeout.
    case timedOut
    /// The server stopped first.
    case serverStopped

    /// One word for log lines.
    public var description: String {
        switch self {
        case .completed: return "completed"
        case .clientDisconnected: return "disconnected"
        case .timedOut: return "timeout"
        case .serverStopped: return "stopped"
        }
    }
}
