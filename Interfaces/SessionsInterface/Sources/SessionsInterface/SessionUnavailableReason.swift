/// Why a session can no longer be used. Each reason ends the session on
/// this device: its tokens are deleted and only a new session helps (the
/// daemon makes a new child; a person signs in again for a parent).
public enum SessionUnavailableReason: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// No tokens are stored for the family (never created, or deleted).
    case noTokens = "no_tokens"
    /// The server revoked the session (`401 session_revoked`): logout, an
    /// administrator, a new child replacing this one, or a revoked parent.
    case revoked = "session_revoked"
    /// The server saw a refresh token presented twice and revoked the whole
    /// family (`401 refresh_reuse`).
    case refreshReuse = "refresh_reuse"
    /// The refresh token has expired (`401 token_expired` on refresh).
    case refreshExpired = "token_expired"
    /// The server does not know the refresh token (`401 invalid_grant`).
    case invalidGrant = "invalid_grant"

    /// A short explanation for a person.
    public var description: String {
        switch self {
        case .noTokens: return "no session is stored"
        case .revoked: return "the session was revoked"
        case .refreshReuse: return "the server detected a reused refresh token and ended the session"
        case .refreshExpired: return "the session expired"
        case .invalidGrant: return "the server does not know the session"
        }
    }
}
