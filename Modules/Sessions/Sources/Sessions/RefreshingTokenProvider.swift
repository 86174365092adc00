public import HTTPInterface
import HTTPTypes
import KeychainInterface
public import SessionsInterface
public import SharedStateInterface
import WireContract

/// The access token of one session family, refreshed when it expires: the
/// ``SessionsInterface/AccessTokenProvider`` of the `share` CLI (child
/// family) and of the daemon (parent family).
///
/// A refresh rotates the refresh token, and presenting a rotated one is
/// reuse: the server then revokes the whole family (two processes that
/// shared one keychain and refreshed 13 ms apart were both signed out this
/// way in the field). So a refresh happens once for everyone who
/// needs it:
///
/// - **Inside the process**, callers that find the token expiring while a
///   refresh is running wait for that refresh instead of starting another.
/// - **Across processes**, the refresh runs under the app group's lock
///   `session.refresh.<role>`. After taking it the provider reads the
///   stored tokens again and refreshes only if they still need it; when
///   another process rotated them meanwhile it uses theirs, and it always
///   presents the refresh token it just read, never one it remembered.
/// - The new pair is written to the keychain (atomically, durably) before
///   the new access token is handed to anyone, so a process that dies
///   right after the refresh leaves the live refresh token behind, not the
///   rotated one.
///
/// A `401` `session_revoked`, `refresh_reuse`, `token_expired` or
/// `invalid_grant` on refresh ends the session: this family's item is
/// deleted (if it still holds the refresh token that was refused) and
/// callers get ``SessionsInterface/SessionError/unavailable(_:)``. A
/// provider reads, writes and deletes only its own role's item and takes
/// only its own role's lock.
///
/// The stored tokens are read on every call rather than kept in memory:
/// another process may have rotated them, which makes the old access token
/// unknown to the server.
///
/// ```swift
/// let storage = SessionTokenStore(secretStore: keychain, accessGroup: "sharekit", serverOrigin: origin)
/// let signed = DPoPHTTPClient(client: try CurlHTTPClient(), signer: try deviceKeys.proofSigner(), nonces: nonces)
/// let provider = RefreshingTokenProvider(
///     role: .child, serverOrigin: origin, storage: storage, client: signed, locks: container.locks)
/// let token = try await provider.currentAccessToken()
/// ```
///
/// If a process dies after the server rotated the pair and before the new
/// one is written, the stored refresh token is a rotated one and the next
/// refresh is reuse; nothing on the client can prevent that window, which is
/// the length of one keychain write after the response arrives.
public actor RefreshingTokenProvider: AccessTokenProvider {
    /// The family this provider refreshes.
    public nonisolated let role: SessionRole

    private let storage: any SessionTokenStorage
    private let endpoint: SessionEndpoint
    private let locks: any CrossProcessLocking
    private let configuration: SessionConfiguration
    private let clock: @Sendable () -> Int64
    private let observer: (@Sendable (SessionRefreshEvent) -> Void)?

    /// The refresh in progress; every caller that needs one awaits it.
    private var inFlight: Task<Result<SessionTokens, SessionError>, Never>?
    /// An access token the server refused; the stored pair is refreshed if
    /// it still holds this one.
    private var rejectedAccessToken: SecretValue?

    /// The cross-process lock a family's refresh (and its replacement by
    /// the daemon) runs under.
    /// - Parameter role: the family.
    /// - Returns: `session.refresh.app` or `session.refresh.share_ext`.
    public static func lockName(for role: SessionRole) -> String { "session.refresh." + role.rawValue }

    /// Makes a provider for one family.
    /// - Parameters:
    ///   - role: the family: `.child` in the CLI, `.parent` in the daemon.
    ///   - serverOrigin: the server (`scheme://host[:port]`), the same as the storage's.
    ///   - storage: where the family's tokens live (``SessionTokenStore``).
    ///   - client: signs requests with the device key the session is bound to.
    ///   - locks: the app group's cross-process locks (the shared container's).
    ///   - configuration: leeway, lock polling, time limits.
    ///   - clock: Unix seconds; ``SessionClock/system`` unless given.
    ///   - observer: told what the provider does (tests, diagnostics); called
    ///     synchronously, see ``SessionRefreshEvent``.
    public init(
        role: SessionRole, serverOrigin: String, storage: any SessionTokenStorage, client: any DPoPSigningHTTPClient,
        locks: any CrossProcessLocking, configuration: SessionConfiguration = SessionConfiguration(),
        clock: @escaping @Sendable () -> Int64 = SessionClock.system,
        observer: (@Sendable (SessionRefreshEvent) -> Void)? = nil
    ) {
        self.role = role
        self.storage = storage
        self.endpoint = SessionEndpoint(
            origin: serverOrigin.hasSuffix("/") ? String(serverOrigin.dropLast()) : serverOrigin, client: client,
            configuration: configuration, clock: clock)
        self.locks = locks
        self.configuration = configuration
        self.clock = clock
        self.observer = observer
    }

    /// The current access token, refreshed first when needed (see the type's documentation).
    /// - Returns: the access token.
    /// - Throws: ``SessionsInterface/SessionError``: `.unavailable` when there is no
    ///   usable session (tokens deleted), `.retryable` when a refresh failed for
    ///   a passing reason (tokens kept), `.cancelled`, `.failed`.
    public func currentAccessToken() async throws(SessionError) -> AccessToken {
        if Task.isCancelled { throw .cancelled }
        if let inFlight { return try await inFlight.value.get().currentAccessToken }
        guard let stored = try storage.read(role) else { throw .unavailable(.noTokens) }
        guard needsRefresh(stored) else { return stored.currentAccessToken }
        // The task inherits this actor, so it cannot start before `inFlight`
        // is set below; it clears `inFlight` itself when it ends.
        let refresh = Task { await self.refreshUnderLock() }
        inFlight = refresh
        return try await refresh.value.get().currentAccessToken
    }

    /// Marks `token` refused, so the next call refreshes if the stored pair still holds it.
    /// - Parameter token: the token the server refused (`401 token_expired` or `invalid_token`).
    public func reportRejected(token: AccessToken) {
        rejectedAccessToken = token.value
    }

    private func needsRefresh(_ tokens: SessionTokens) -> Bool {
        if let rejectedAccessToken, rejectedAccessToken == tokens.accessToken { return true }
        return tokens.accessTokenNeedsRefresh(at: clock(), leeway: configuration.refreshLeewaySeconds)
    }

    private func refreshUnderLock() async -> Result<SessionTokens, SessionError> {
        defer { inFlight = nil }
        observer?(.waitingForLock)
        do {
            let tokens = try await locks.withExclusiveLock(
                named: Self.lockName(for: role), pollingEvery: configuration.lockPollInterval
            ) {
                try await refreshHoldingLock()
            }
            return .success(tokens)
        } catch let error as SessionError {
            return .failure(error)
        } catch is CancellationError {
            return .failure(.cancelled)
        } catch {
            return .failure(.failed("cannot take the \(role) session's refresh lock: \(error)"))
        }
    }

    private func refreshHoldingLock() async throws(SessionError) -> SessionTokens {
        observer?(.lockAcquired)
        // Read again under the lock: another process may have rotated the
        // pair while this one waited, and its refresh token is the only live one.
        guard let stored = try storage.read(role) else { throw .unavailable(.noTokens) }
        guard needsRefresh(stored) else {
            rejectedAccessToken = nil
            observer?(.skipped)
            return stored
        }
        // Stored before the request: if this process dies or the answer is
        // lost, whoever refreshes next knows the token may be spent already.
        // A pair already marked was sent before: this is a retry, numbered
        // (its own answer can be lost too, and the server takes each number
        // once), and the number is stored before the request for the same reason.
        var marked = stored
        if stored.refreshAttempted {
            marked.refreshRetries = min(stored.refreshRetries + 1, RefreshBody.retryAttempts.upperBound)
        } else {
            marked.refreshAttempted = true
        }
        try storage.write(marked, for: role)
        switch try await endpoint.refresh(
            stored.refreshToken, retryAttempt: stored.refreshAttempted ? marked.refreshRetries : nil)
        {
        case .issued(let fresh):
            // Durable before anyone can use the new access token: the old
            // refresh token is spent, and only this write keeps the family alive.
            try storage.write(fresh, for: role)
            rejectedAccessToken = nil
            observer?(.persisted(sessionID: fresh.sessionID))
            return fresh
        case .refused(let status, let code):
            guard let reason = SessionEndpoint.unavailableReason(refreshStatus: status, code: code) else {
                throw SessionEndpoint.error(status: status, code: code, path: Route.refreshToken.pathBelowAPIBase)
            }
            // Delete only the pair that was refused: an item the daemon wrote
            // since (a new child) belongs to a live session.
            if let current = try storage.read(role), current.refreshToken == stored.refreshToken {
                try storage.delete(role)
            }
            observer?(.dropped(reason))
            throw .unavailable(reason)
        }
    }
}
