import ShareKitKeychainInterface

/// An ``AccessTokenProvider`` of one token that never changes: a
/// credential that is not a session's and cannot be refreshed, such as the
/// preview token of a push registration. A refused token stays refused.
public struct FixedAccessToken: AccessTokenProvider {
    /// Fixed tokens belong to no refresh family; this is only a label.
    public let role: SessionRole
    private let token: AccessToken

    /// Wraps a token.
    /// - Parameters:
    ///   - value: the token.
    ///   - label: what it is, for messages (`push preview`); not a secret.
    ///   - role: the family it is used for (a label here; nothing is refreshed).
    public init(_ value: String, label: String, role: SessionRole = .parent) {
        self.role = role
        token = AccessToken(sessionID: label, value: SecretValue(utf8: value), expiresAt: Int64.max)
    }

    /// The token.
    /// - Returns: the token given at creation.
    public func currentAccessToken() async throws(SessionError) -> AccessToken { token }

    /// Nothing to do: there is no other token to hand out.
    /// - Parameter token: the refused token.
    public func reportRejected(token: AccessToken) async {}
}
