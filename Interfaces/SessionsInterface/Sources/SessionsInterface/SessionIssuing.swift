public import ShareKitKeychainInterface
import ShareKitWireContract

/// Makes, ends and deletes sessions: login (the daemon's parent family),
/// createExtensionSession (the CLI's child family), logout. What the
/// programs need from the session code besides access tokens.
public protocol SessionIssuing: Sendable {
    /// Logs in with a username and password and stores the parent session.
    /// - Parameters:
    ///   - username: the user's name.
    ///   - password: the password (never stored).
    /// - Returns: the new parent session.
    /// - Throws: ``SessionError``; ``SessionError/isWrongCredentials`` tells
    ///   a wrong username or password from other failures.
    func login(username: String, password: SecretValue) async throws(SessionError) -> SessionTokens

    /// Asks the server for a new child session with the parent's token and
    /// stores it (it replaces the previous child there).
    /// - Parameter parent: the parent family's tokens.
    /// - Returns: the new child session.
    /// - Throws: ``SessionError``.
    func createChildSession(parent: any AccessTokenProvider) async throws(SessionError) -> SessionTokens

    /// The stored child session, or a new one when none is usable.
    /// - Parameter parent: the parent family's tokens.
    /// - Returns: the child session.
    /// - Throws: ``SessionError``.
    func ensureChildSession(parent: any AccessTokenProvider) async throws(SessionError) -> SessionTokens

    /// Ends the session on the server (logout), refreshing once if its token
    /// was refused as expired.
    /// - Parameter parent: the provider of the session to end.
    /// - Returns: what the server did.
    /// - Throws: ``SessionError``.
    func logout(parent: any AccessTokenProvider) async throws(SessionError) -> LogoutResult

    /// Deletes a family's stored tokens under its refresh lock.
    /// - Parameter role: the family.
    /// - Throws: ``SessionError``.
    func deleteStoredSession(_ role: SessionRole) async throws(SessionError)
}

extension SessionError {
    /// Whether a login failure means the username or password is wrong
    /// (`401 invalid_credentials`), as opposed to a server that cannot be
    /// reached or refused for another reason.
    public var isWrongCredentials: Bool {
        guard case .failed(let text) = self else { return false }
        return text.hasPrefix(Route.login.pathBelowAPIBase + " answered 401 invalid_credentials")
    }
}
