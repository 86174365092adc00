public import KeychainInterface

/// One stored session: its id and its DPoP-bound token pair with their
/// expiry times, as the server issued them (docs/protocol.md, "Sessions and
/// families").
///
/// Both tokens are ``KeychainInterface/SecretValue``s, so printing, logging,
/// interpolating or dumping a `SessionTokens` never shows them; the session
/// id and the times are not secret. Times are Unix time in whole seconds,
/// taken from the client's clock: the expiries are the moment the request
/// that obtained the pair was sent plus the lifetimes the server announced,
/// so they never lie later than the server's own.
public struct SessionTokens: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The server's id of the session (`ses_…`); not a secret.
    public var sessionID: String
    /// The access token sent as `Authorization: DPoP <token>`.
    public var accessToken: SecretValue
    /// When the access token expires (Unix seconds).
    public var accessExpiresAt: Int64
    /// The refresh token, usable once (rotation).
    public var refreshToken: SecretValue
    /// When the refresh token expires (Unix seconds); after that the session
    /// can only be replaced, not refreshed.
    public var refreshExpiresAt: Int64
    /// When the pair was obtained (Unix seconds): with ``accessExpiresAt`` it
    /// gives the access token's lifetime, which bounds how early a refresh
    /// may start.
    public var obtainedAt: Int64
    /// Whether a refresh of this pair was sent and its answer may not have
    /// arrived (a process killed mid-request, a lost connection). Set and
    /// stored before each refresh: the next attempt with the same refresh
    /// token then tells the server it is a retry, so a rotation whose answer
    /// was lost is not taken for reuse (which would end the whole family).
    public var refreshAttempted: Bool = false
    /// How many retries of this pair's refresh were sent (0 before the
    /// first). Each retry's answer can be lost too; the next one is sent
    /// with the next number, which the server accepts once (a copy of the
    /// same request, with the same number, is still reuse).
    public var refreshRetries: Int = 0

    /// Makes a stored session.
    /// - Parameters:
    ///   - sessionID: the session's id.
    ///   - accessToken: the access token.
    ///   - accessExpiresAt: when it expires (Unix seconds).
    ///   - refreshToken: the refresh token.
    ///   - refreshExpiresAt: when it expires (Unix seconds).
    ///   - obtainedAt: when the pair was obtained (Unix seconds).
    ///   - refreshAttempted: whether a refresh of this pair was sent already.
    public init(
        sessionID: String, accessToken: SecretValue, accessExpiresAt: Int64, refreshToken: SecretValue,
        refreshExpiresAt: Int64, obtainedAt: Int64, refreshAttempted: Bool = false
    ) {
        self.sessionID = sessionID
        self.accessToken = accessToken
        self.accessExpiresAt = accessExpiresAt
        self.refreshToken = refreshToken
        self.refreshExpiresAt = refreshExpiresAt
        self.obtainedAt = obtainedAt
        self.refreshAttempted = refreshAttempted
    }

    /// Whether the access token is expired or so close to expiry that a
    /// request made with it could arrive too late.
    ///
    /// The leeway is capped at half the token's lifetime: with very short
    /// lifetimes (a test server's two seconds) a fixed leeway would make
    /// every fresh token look expired, and every caller would refresh again.
    /// - Parameters:
    ///   - now: the current time (Unix seconds).
    ///   - leeway: how many seconds before expiry a token counts as expiring.
    /// - Returns: true when the access token should be replaced before use.
    public func accessTokenNeedsRefresh(at now: Int64, leeway: Int64) -> Bool {
        // The times come from a keychain item: no subtraction here may trap,
        // whatever they hold.
        let (difference, overflow) = accessExpiresAt.subtractingReportingOverflow(obtainedAt)
        let lifetime = overflow ? (accessExpiresAt > obtainedAt ? Int64.max : 0) : max(0, difference)
        let margin = max(0, min(leeway, lifetime / 2))
        let (due, early) = accessExpiresAt.subtractingReportingOverflow(margin)
        return early || now >= due
    }

    /// The access token with its session and expiry, as senders use it.
    public var currentAccessToken: AccessToken {
        AccessToken(sessionID: sessionID, value: accessToken, expiresAt: accessExpiresAt)
    }

    /// The session id and times, never a token.
    public var description: String {
        "SessionTokens(session: \(sessionID), access expires at \(accessExpiresAt), "
            + "refresh expires at \(refreshExpiresAt), tokens redacted)"
    }

    /// Same as ``description``: debugging output never shows a token either.
    public var debugDescription: String { description }

    /// A mirror without the tokens, so `dump` and reflection stay redacted.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "sessionID": sessionID, "accessExpiresAt": accessExpiresAt, "refreshExpiresAt": refreshExpiresAt,
                "obtainedAt": obtainedAt, "tokens": "redacted",
            ])
    }
}
