public import WireContract

/// The body of login: the wire contract's type.
public typealias LoginBody = LoginRequest

/// The body of refresh: the wire contract's type; `retry` is left out
/// when nil (callers pass `true` or nil).
public typealias RefreshBody = RefreshRequest

/// The body of createExtensionSession: the wire contract's type.
public typealias ExtensionSessionBody = ExtensionSessionRequest

/// A token answer (login, refresh, createExtensionSession): `{session_id,
/// access_token, refresh_token, token_type: "DPoP", expires_in, refresh_expires_in}`.
public struct TokenAnswer: Decodable, Sendable {
    /// The session's id.
    public var sessionID: String
    /// The access token.
    public var accessToken: String
    /// The refresh token.
    public var refreshToken: String
    /// `DPoP` (a bearer token would be sent without the binding the server checks).
    public var tokenType: String?
    /// The access token's lifetime in seconds.
    public var expiresIn: Int64
    /// The refresh token's lifetime in seconds.
    public var refreshExpiresIn: Int64

    enum CodingKeys: String, CodingKey {
        case sessionID = "session_id"
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshExpiresIn = "refresh_expires_in"
    }
}
