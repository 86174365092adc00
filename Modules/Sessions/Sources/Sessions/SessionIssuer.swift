public import ShareKitHTTPInterface
import ShareKitHTTPTypes
public import ShareKitKeychainInterface
import ShareKitServerAPIInterface
public import ShareKitSessionsInterface
public import ShareKitSharedStateInterface
import ShareKitWireContract

/// Makes sessions and stores them: the daemon's parent session by login,
/// and the CLI's child session through createExtensionSession
/// (docs/protocol.md, "Sessions and families").
///
/// The daemon calls ``ensureChildSession(parent:)`` after login and at
/// start: when the keychain holds no usable child tokens it asks the server
/// for a new child (which replaces the previous one there) and stores it for
/// the CLI. It never refreshes the child family: that is the CLI's
/// ``RefreshingTokenProvider`` alone. Each new session is written under its
/// family's refresh lock, so it can never interleave with a refresh of the
/// same family in another process (which would otherwise delete the new
/// item after its own, older, session was refused).
///
/// ```swift
/// let issuer = SessionIssuer(serverOrigin: origin, storage: storage, client: signed, locks: container.locks)
/// try await issuer.login(username: "alex", password: SecretValue(utf8: password))
/// let parent = RefreshingTokenProvider(
///     role: .parent, serverOrigin: origin, storage: storage, client: signed, locks: container.locks)
/// try await issuer.ensureChildSession(parent: parent)
/// ```
public struct SessionIssuer: SessionIssuing {
    private let storage: any SessionTokenStorage
    private let endpoint: SessionEndpoint
    private let locks: any CrossProcessLocking
    private let configuration: SessionConfiguration
    private let clock: @Sendable () -> Int64

    /// Makes an issuer.
    /// - Parameters:
    ///   - serverOrigin: the server (`scheme://host[:port]`).
    ///   - storage: where sessions are stored (``SessionTokenStore``).
    ///   - client: signs requests with the device key; new sessions are bound to it.
    ///   - locks: the app group's cross-process locks.
    ///   - configuration: lock polling and time limits.
    ///   - clock: Unix seconds; ``SessionClock/system`` unless given.
    public init(
        serverOrigin: String, storage: any SessionTokenStorage, client: any DPoPSigningHTTPClient,
        locks: any CrossProcessLocking, configuration: SessionConfiguration = SessionConfiguration(),
        clock: @escaping @Sendable () -> Int64 = SessionClock.system
    ) {
        self.storage = storage
        self.endpoint = SessionEndpoint(
            origin: serverOrigin.hasSuffix("/") ? String(serverOrigin.dropLast()) : serverOrigin, client: client,
            configuration: configuration, clock: clock)
        self.locks = locks
        self.configuration = configuration
        self.clock = clock
    }

    /// Logs in (`client_component` `app`) and stores the new parent session,
    /// replacing any stored one.
    /// - Parameters:
    ///   - username: the person's username.
    ///   - password: the password, wrapped so it never prints.
    /// - Returns: the stored session.
    /// - Throws: ``ShareKitSessionsInterface/SessionError/failed(_:)`` for wrong
    ///   credentials (`invalid_credentials`) and other refusals,
    ///   `.retryable` for passing failures, `.cancelled`.
    @discardableResult
    public func login(username: String, password: SecretValue) async throws(SessionError) -> SessionTokens {
        let outcome = try await endpoint.login(username: username, password: password)
        switch outcome {
        case .issued(let tokens):
            try await withFamilyLock(.parent) { try storage.write(tokens, for: .parent) }
            return tokens
        case .refused(let status, let code):
            throw SessionEndpoint.error(status: status, code: code, path: Route.login.pathBelowAPIBase)
        }
    }

    /// Asks the server for a new child session with the parent's access
    /// token and stores it for the CLI. The server revokes the previous
    /// child of this parent.
    ///
    /// When the server refuses the parent's token (`token_expired`,
    /// `invalid_token`, `session_revoked`) the issuer reports it to `parent`
    /// and tries once more with the token `parent` then hands out (which
    /// refreshes the parent family, or ends it).
    /// - Parameter parent: the daemon's parent-session provider.
    /// - Returns: the stored child session.
    /// - Throws: what `parent` throws (`.unavailable` when the parent session
    ///   is gone), or ``ShareKitSessionsInterface/SessionError`` for the request itself.
    @discardableResult
    public func createChildSession(parent: any AccessTokenProvider) async throws(SessionError) -> SessionTokens {
        var attempt = 0
        while true {
            attempt += 1
            let parentToken = try await parent.currentAccessToken()
            let outcome = try await createChildHoldingLock(parentToken: parentToken)
            switch outcome {
            case .issued(let tokens):
                return tokens
            // The same refresh policy as the authorized API client's; this
            // call cannot go through that client, because the request and
            // the keychain write must happen under the child family's lock.
            case .refused(401, let code?) where attempt == 1 && APIClassifier.refreshCodes.contains(code):
                await parent.reportRejected(token: parentToken)
            case .refused(let status, let code):
                throw SessionEndpoint.error(
                    status: status, code: code, path: Route.createExtensionSession.pathBelowAPIBase)
            }
        }
    }

    /// Makes sure the keychain holds a child session the CLI can use: keeps
    /// the stored one while its refresh token is valid, else creates a new one.
    /// - Parameter parent: the daemon's parent-session provider.
    /// - Returns: the stored child session.
    /// - Throws: as ``createChildSession(parent:)``, and `.failed` when the keychain cannot be read.
    @discardableResult
    public func ensureChildSession(parent: any AccessTokenProvider) async throws(SessionError) -> SessionTokens {
        if let child = try storage.read(.child), child.refreshExpiresAt > clock() { return child }
        return try await createChildSession(parent: parent)
    }

    /// Ends a session on the server (`POST /auth/logout` with its access
    /// token), which revokes it and its child sessions there. Best effort
    /// by design: the caller deletes the stored tokens whatever happens
    /// (``deleteStoredSession(_:)``), this only tells the server.
    ///
    /// When the server refuses the access token as expired or unknown the
    /// issuer reports it to `parent` and tries once more with the token
    /// `parent` then hands out (a refresh of that family).
    /// - Parameter parent: the provider of the session to end (the parent's, for `share logout`).
    /// - Returns: ``LogoutResult/revoked``, or ``LogoutResult/alreadyEnded(_:)``
    ///   when no session is stored or the server had already ended it.
    /// - Throws: ``ShareKitSessionsInterface/SessionError/retryable(_:)`` when the
    ///   server cannot be reached or is failing now, `.failed` for any other
    ///   answer or a keychain failure, `.cancelled`.
    public func logout(parent: any AccessTokenProvider) async throws(SessionError) -> LogoutResult {
        var attempt = 0
        while true {
            attempt += 1
            let token: AccessToken
            do {
                token = try await parent.currentAccessToken()
            } catch .unavailable(let reason) {
                return .alreadyEnded(reason)
            }
            let (status, code) = try await endpoint.logout(accessToken: token)
            switch (status, code) {
            case (200..<300, _):
                return .revoked
            case (401, "session_revoked"):
                return .alreadyEnded(.revoked)
            case (401, let code?) where attempt == 1 && APIClassifier.refreshCodes.contains(code):
                await parent.reportRejected(token: token)
            default:
                throw SessionEndpoint.error(status: status, code: code, path: Route.logout.pathBelowAPIBase)
            }
        }
    }

    /// Deletes a family's stored tokens, holding that family's refresh
    /// lock so that a refresh running in another process cannot write the
    /// session back after it was deleted.
    /// - Parameter role: the family.
    /// - Throws: ``ShareKitSessionsInterface/SessionError/failed(_:)`` when the
    ///   keychain refused or the lock could not be taken, `.cancelled`.
    public func deleteStoredSession(_ role: SessionRole) async throws(SessionError) {
        try await withFamilyLock(role) { try storage.delete(role) }
    }

    /// Sends createExtensionSession and stores its answer, holding the child
    /// family's lock throughout, so no CLI refresh of the previous child can
    /// run (and delete the item) between the server's answer and the write.
    private func createChildHoldingLock(parentToken: AccessToken) async throws(SessionError) -> TokenCallOutcome {
        try await withFamilyLock(.child) {
            let outcome = try await endpoint.createChild(parentToken: parentToken)
            if case .issued(let tokens) = outcome { try storage.write(tokens, for: .child) }
            return outcome
        }
    }

    /// Runs `body` holding a family's refresh lock, waiting for it without
    /// blocking a thread. `body` throws only ``ShareKitSessionsInterface/SessionError``.
    private func withFamilyLock<T>(_ role: SessionRole, _ body: () async throws -> T) async throws(SessionError) -> T {
        do {
            return try await locks.withExclusiveLock(
                named: RefreshingTokenProvider.lockName(for: role), pollingEvery: configuration.lockPollInterval, body)
        } catch let error as SessionError {
            throw error
        } catch is CancellationError {
            throw .cancelled
        } catch {
            throw .failed("cannot take the \(role) session's lock: \(error)")
        }
    }
}
