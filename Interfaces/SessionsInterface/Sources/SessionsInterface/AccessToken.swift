public import ShareKitKeychainInterface

/// An access token as a sender gets it from an ``AccessTokenProvider``: the
/// value to send, wrapped so that it never prints, with the session it
/// belongs to and its expiry.
public struct AccessToken: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The session the token belongs to; not a secret.
    public let sessionID: String
    /// The token.
    public let value: SecretValue
    /// When it expires (Unix seconds, client clock).
    public let expiresAt: Int64

    /// Wraps a token.
    /// - Parameters:
    ///   - sessionID: the session it belongs to.
    ///   - value: the token.
    ///   - expiresAt: when it expires (Unix seconds).
    public init(sessionID: String, value: SecretValue, expiresAt: Int64) {
        self.sessionID = sessionID
        self.value = value
        self.expiresAt = expiresAt
    }

    /// The token as text, for the one place that needs it: the
    /// `Authorization: DPoP` header (and the proof's `ath`). Named plainly
    /// so that every use of the raw token is easy to find.
    public var plainText: String { value.utf8String ?? "" }

    /// The session and expiry, never the token.
    public var description: String { "AccessToken(session: \(sessionID), expires at \(expiresAt), redacted)" }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror without the token.
    public var customMirror: Mirror {
        Mirror(self, children: ["sessionID": sessionID, "expiresAt": expiresAt, "value": "redacted"])
    }
}
