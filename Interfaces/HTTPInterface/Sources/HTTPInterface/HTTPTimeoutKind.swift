/// Which of a request's time limits (``HTTPTimeouts``) ended it.
public enum HTTPTimeoutKind: Hashable, Sendable, CustomStringConvertible {
    /// The connection (TCP, and TLS for `https`) was not established within
    /// ``HTTPTimeouts/connect``.
    case connect
    /// The transfer moved fewer than ``HTTPTimeouts/lowSpeedLimit`` bytes per
    /// second for ``HTTPTimeouts/lowSpeedTime``: the connection or the server stalled.
    case lowSpeed
    /// The whole request took longer than ``HTTPTimeouts/total``.
    case total

    /// A few words for messages.
    public var description: String {
        switch self {
        case .connect: return "connect"
        case .lowSpeed: return "low speed"
        case .total: return "total"
        }
    }
}
