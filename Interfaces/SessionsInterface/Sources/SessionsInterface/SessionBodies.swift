/// The body of login (`POST /auth/login`).
public struct LoginBody: Encodable, Sendable {
    /// The user's name.
    public var username: String
    /// The password (sent once, over the DPoP-signed request; never kept).
    public var password: String
    /// The session's family: `app` for a login.
    public var clientComponent: String

    /// Makes a body.
    /// - Parameters:
    ///   - username: the user's name.
    ///   - password: the password.
    ///   - clientComponent: the family's component.
    public init(username: String, password: String, clientComponent: String) {
        self.username = username
        self.password = password
        self.clientComponent = clientComponent
    }

    enum CodingKeys: String, CodingKey {
        case username, password
        case clientComponent = "client_component"
    }
}

/// The body of refresh (`POST /auth/refresh`).
public struct RefreshBody: Encodable, Sendable {
    /// The refresh token to spend.
    public var refreshToken: String
    /// True when this token may have been sent before without an answer
    /// heard: the server then accepts it once more if its last rotation was
    /// never used. Left out when false.
    public var retry: Bool?

    /// Makes a body.
    /// - Parameters:
    ///   - refreshToken: the refresh token.
    ///   - retry: whether this is a retry of a refresh whose answer was lost.
    public init(refreshToken: String, retry: Bool) {
        self.refreshToken = refreshToken
        self.retry = retry ? true : nil
    }

    enum CodingKeys: String, CodingKey {
        case retry
        case refreshToken = "refresh_token"
    }
}

/// The body of createExtensionSession (`POST /auth/extension-sessions`).
public struct ExtensionSessionBody: Encodable, Sendable {
    /// The child's family: `share_ext`.
    public var clientComponent: String

    /// Makes a body.
    /// - Parameter clientComponent: the child's component.
    public init(clientComponent: String) {
        self.clientComponent = clientComponent
    }

    enum CodingKeys: String, CodingKey {
        case clientComponent = "client_component"
    }
}

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
