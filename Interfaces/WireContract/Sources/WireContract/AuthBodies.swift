// The bodies of the session operations: login, refreshToken,
// createExtensionSession, listAudit.
//
// Request bodies keep the property names the server has always named in
// its `400 invalid_json` messages about NUL (`body.clientComponent`), so
// moving them here changes no message.

/// The body of login (`LoginRequest`).
public struct LoginRequest: Codable, Hashable, Sendable {
    /// The username.
    public var username: String
    /// The password.
    public var password: String
    /// The component that logs in; only `app` (the default when absent) is accepted.
    public var clientComponent: String?

    /// Makes a body.
    /// - Parameters:
    ///   - username: the username.
    ///   - password: the password.
    ///   - clientComponent: `app`, or nil to leave it out.
    public init(username: String, password: String, clientComponent: String? = nil) {
        self.username = username
        self.password = password
        self.clientComponent = clientComponent
    }

    private enum CodingKeys: String, CodingKey {
        case username, password
        case clientComponent = "client_component"
    }
}

/// The body of refreshToken (`RefreshRequest`).
public struct RefreshRequest: Codable, Hashable, Sendable {
    /// The refresh token, usable once.
    public var refreshToken: String
    /// True when this client sent this token before and never heard the
    /// answer (an addition to the core contract, docs/protocol.md).
    public var retry: Bool?
    /// Which retry of this token this is (1 for the first), sent with
    /// `retry: true`: the answer to a retry can be lost too, and the server
    /// accepts each attempt number once, so a second lost answer is retried
    /// with 2 while copies of one request (the same number) are still reuse.
    /// Absent means 1 (clients written before it existed).
    public var retryAttempt: Int?

    /// The numbers `retry_attempt` may hold; a server answers `400` to any
    /// other. How many it accepts for one token is its own choice
    /// (docs/protocol.md: the reference server's is 3).
    public static let retryAttempts: ClosedRange<Int> = 1...100

    /// Makes a body.
    /// - Parameters:
    ///   - refreshToken: the token.
    ///   - retry: true for a retry of a refresh whose answer was lost; nil leaves it out.
    public init(refreshToken: String, retry: Bool? = nil) {
        self.refreshToken = refreshToken
        self.retry = retry
    }

    /// Makes the body of a numbered retry.
    /// - Parameters:
    ///   - refreshToken: the token.
    ///   - retry: true for a retry of a refresh whose answer was lost; nil leaves it out.
    ///   - retryAttempt: which retry of this token it is (1 for the first); nil leaves it out.
    public init(refreshToken: String, retry: Bool?, retryAttempt: Int?) {
        self.refreshToken = refreshToken
        self.retry = retry
        self.retryAttempt = retryAttempt
    }

    private enum CodingKeys: String, CodingKey {
        case refreshToken = "refresh_token"
        case retry
        case retryAttempt = "retry_attempt"
    }
}

/// The body of createExtensionSession (`ExtensionSessionRequest`).
public struct ExtensionSessionRequest: Codable, Hashable, Sendable {
    /// `share_ext` or `notification_ext`.
    public var clientComponent: String

    /// Makes a body.
    /// - Parameter clientComponent: the extension the child session is for.
    public init(clientComponent: String) { self.clientComponent = clientComponent }

    private enum CodingKeys: String, CodingKey { case clientComponent = "client_component" }
}

/// A session's tokens (`TokenPair`), the answer of login, refreshToken and
/// createExtensionSession.
public struct TokenPair: Codable, Hashable, Sendable {
    /// The session.
    public var sessionID: String
    /// The access token (`Authorization: DPoP …`).
    public var accessToken: String
    /// The refresh token, usable once.
    public var refreshToken: String
    /// Always `DPoP`.
    public var tokenType: String
    /// Seconds the access token is valid.
    public var expiresIn: Int64
    /// Seconds the refresh token is valid.
    public var refreshExpiresIn: Int64

    /// Makes an answer.
    /// - Parameters:
    ///   - sessionID: the session.
    ///   - accessToken: the access token.
    ///   - refreshToken: the refresh token.
    ///   - tokenType: `DPoP`.
    ///   - expiresIn: seconds the access token is valid.
    ///   - refreshExpiresIn: seconds the refresh token is valid.
    public init(
        sessionID: String, accessToken: String, refreshToken: String, tokenType: String = "DPoP",
        expiresIn: Int64, refreshExpiresIn: Int64
    ) {
        self.sessionID = sessionID
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.refreshExpiresIn = refreshExpiresIn
    }

    private enum CodingKeys: String, CodingKey {
        case sessionID = "session_id"
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshExpiresIn = "refresh_expires_in"
    }

    /// Decodes a token answer as the clients always have: every member
    /// required and of its type, but `token_type` absent or null reads as
    /// `DPoP` (older servers left it out). Whether the values are usable
    /// (not empty, positive lifetimes, DPoP) is the client's check.
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` when a member is missing or of the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sessionID = try container.decode(String.self, forKey: .sessionID)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        refreshToken = try container.decode(String.self, forKey: .refreshToken)
        tokenType = try container.decodeIfPresent(String.self, forKey: .tokenType) ?? "DPoP"
        expiresIn = try container.decode(Int64.self, forKey: .expiresIn)
        refreshExpiresIn = try container.decode(Int64.self, forKey: .refreshExpiresIn)
    }
}

/// A token endpoint's refusal of a DPoP proof (`OAuthError`, RFC 6749
/// section 5.2), the one answer that is not a problem document.
public struct OAuthErrorBody: Codable, Hashable, Sendable {
    /// `invalid_dpop_proof` or `use_dpop_nonce`.
    public var error: String
    /// What was wrong, for people.
    public var errorDescription: String?

    /// Makes an answer.
    /// - Parameters:
    ///   - error: the code.
    ///   - errorDescription: the description.
    public init(error: String, errorDescription: String?) {
        self.error = error
        self.errorDescription = errorDescription
    }

    private enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
    }
}

/// One record of listAudit (`AuditRecord`).
public struct AuditRecord: Codable, Hashable, Sendable {
    /// What happened, e.g. `refresh_reuse`.
    public var kind: String
    /// The session, or null.
    public var sessionID: String?
    /// The session family, or null.
    public var familyID: String?
    /// When (RFC 3339).
    public var at: String

    /// Makes a record.
    /// - Parameters:
    ///   - kind: what happened.
    ///   - sessionID: the session, or nil.
    ///   - familyID: the family, or nil.
    ///   - at: when.
    public init(kind: String, sessionID: String?, familyID: String?, at: String) {
        self.kind = kind
        self.sessionID = sessionID
        self.familyID = familyID
        self.at = at
    }

    private enum CodingKeys: String, CodingKey {
        case kind, at
        case sessionID = "session_id"
        case familyID = "family_id"
    }

    /// Encodes the record; `session_id` and `family_id` are written as
    /// `null` when absent (the document says null, not missing).
    /// - Parameter encoder: the encoder.
    /// - Throws: what the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(sessionID, forKey: .sessionID)
        try container.encode(familyID, forKey: .familyID)
        try container.encode(at, forKey: .at)
    }
}

/// The answer of listAudit (`AuditList`).
public struct AuditList: Codable, Hashable, Sendable {
    /// The records, oldest first.
    public var items: [AuditRecord]

    /// Makes an answer.
    /// - Parameter items: the records.
    public init(items: [AuditRecord]) { self.items = items }
}
