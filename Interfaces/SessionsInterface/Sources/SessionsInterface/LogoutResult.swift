/// What ``SessionIssuing/logout(parent:)`` achieved on the server.
public enum LogoutResult: Hashable, Sendable, CustomStringConvertible {
    /// The server revoked the session and its child sessions (`204`).
    case revoked
    /// There was nothing left to end: no session was stored, or the server
    /// had already ended it (revoked, expired, unknown).
    case alreadyEnded(SessionUnavailableReason)

    /// A message for a person.
    public var description: String {
        switch self {
        case .revoked: return "the server ended the session and its child sessions"
        case .alreadyEnded(.noTokens): return "no session was stored"
        case .alreadyEnded(let reason): return "the session had already ended (\(reason))"
        }
    }
}
