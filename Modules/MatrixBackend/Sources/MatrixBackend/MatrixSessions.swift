public import ShareKitCore
import ShareKitHTTPInterface
import ShareKitHTTPTypes
public import ShareKitKeychainInterface
import ShareKitServerAPIInterface
public import ShareKitSessionsInterface
public import ShareKitSharedStateInterface
import ShareKitWireContract
import Synchronization

/// The sessions of one Matrix account: each ``ShareKitSessionsInterface/SessionRole``
/// is a device of its own on the homeserver (the daemon's `parent`, the
/// CLI's `child`), logged in with the password and with refresh tokens, its
/// tokens stored in the keychain like a ShareKit server's.
///
/// Matrix has no way to make a second device from the first one's token
/// (without an extension the homeserver may not enable), so both devices
/// are made while `share login` holds the password: ``login(username:password:)``
/// makes the daemon's device and keeps the password in this object's memory
/// only, for the ``createChildSession(parent:)`` right after it. A child
/// needed later (its device was signed out in Element) asks for `share login`.
public final class MatrixSessionIssuer: SessionIssuing {
    private let homeserver: MatrixHomeserver
    private let storage: any SessionTokenStorage
    private let locks: any CrossProcessLocking
    private let deviceNames: @Sendable (SessionRole) -> String
    private let clock: @Sendable () -> Int64
    private let credentials = Mutex<(user: String, password: SecretValue)?>(nil)

    /// - Parameters:
    ///   - homeserver: the homeserver.
    ///   - storage: the account's token store (one item per role).
    ///   - locks: the cross-process locks of the container (one refresh lock per role).
    ///   - deviceNames: the display name of each role's device, as Element lists it.
    ///   - clock: Unix seconds now.
    public init(
        homeserver: MatrixHomeserver, storage: any SessionTokenStorage, locks: any CrossProcessLocking,
        deviceNames: @escaping @Sendable (SessionRole) -> String,
        clock: @escaping @Sendable () -> Int64 = { UnixClock.system.seconds() }
    ) {
        self.homeserver = homeserver
        self.storage = storage
        self.locks = locks
        self.deviceNames = deviceNames
        self.clock = clock
    }

    /// Logs in the daemon's device (`m.login.password`, refresh tokens
    /// asked for), then signs out the device an earlier login of this
    /// account left (only once the new one works: a mistyped password ends nothing).
    public func login(username: String, password: SecretValue) async throws(SessionError) -> SessionTokens {
        let tokens = try await replaceDevice(.parent, username: username, password: password)
        credentials.withLock { $0 = (username, password) }
        return tokens
    }

    /// Logs in the CLI's device with the password ``login(username:password:)`` was given.
    public func createChildSession(parent: any AccessTokenProvider) async throws(SessionError) -> SessionTokens {
        guard let (user, password) = credentials.withLock({ $0 }) else {
            throw .unavailable(.noTokens)
        }
        return try await replaceDevice(.child, username: user, password: password)
    }

    /// The stored CLI device, or a new one while the password is known.
    public func ensureChildSession(parent: any AccessTokenProvider) async throws(SessionError) -> SessionTokens {
        if let stored = try storage.read(.child) { return stored }
        return try await createChildSession(parent: parent)
    }

    /// Signs out both devices (`POST /logout` with each one's token): the
    /// person's session list in Element loses both.
    public func logout(parent: any AccessTokenProvider) async throws(SessionError) -> LogoutResult {
        let child = await endStoredDevice(.child)
        let parentEnded = await endStoredDevice(.parent)
        switch (parentEnded, child) {
        case (.some(true), _), (_, .some(true)): return .revoked
        case (.some(false), _), (_, .some(false)): return .alreadyEnded(.revoked)
        case (nil, nil): return .alreadyEnded(.noTokens)
        }
    }

    /// Deletes a role's stored tokens under its refresh lock, signing out
    /// their device first (best effort): tokens nobody keeps would leave a
    /// live device in the person's session list (`share login` replaces the
    /// CLI's device this way).
    public func deleteStoredSession(_ role: SessionRole) async throws(SessionError) {
        await endStoredDevice(role)
        do {
            try await locks.withExclusiveLock(
                named: MatrixTokenProvider.lockName(role), pollingEvery: .milliseconds(20)
            ) {
                try storage.delete(role)
            }
        } catch let error as SessionError {
            throw error
        } catch {
            throw .failed("cannot take the \(role) device's lock: \(error)")
        }
    }

    /// Signs out the stored device of a role, best effort.
    /// - Returns: true when the homeserver signed it out, false when it no
    ///   longer knew it (or could not be asked), nil when none was stored.
    @discardableResult
    private func endStoredDevice(_ role: SessionRole) async -> Bool? {
        guard let stored = (try? storage.read(role)) ?? nil else { return nil }
        return await endDevice(stored)
    }

    /// Signs out one device with its own token, best effort.
    /// - Returns: whether the homeserver signed it out.
    @discardableResult
    private func endDevice(_ tokens: SessionTokens) async -> Bool {
        let answer = try? await homeserver.exchange(
            .post, "/_matrix/client/v3/logout", body: MatrixHomeserver.body([:]), token: tokens.currentAccessToken,
            operation: "logout")
        return answer.map { (200..<300).contains($0.status) } ?? false
    }

    /// Logs in a new device for `role`, stores it, and signs out the one it replaces.
    private func replaceDevice(_ role: SessionRole, username: String, password: SecretValue)
        async throws(SessionError) -> SessionTokens
    {
        let previous = (try? storage.read(role)) ?? nil
        let tokens = try await passwordLogin(username: username, password: password, role: role)
        if let previous { await endDevice(previous) }
        try storage.write(tokens, for: role)
        return tokens
    }

    private func passwordLogin(username: String, password: SecretValue, role: SessionRole)
        async throws(SessionError) -> SessionTokens
    {
        let request: JSONValue = [
            "type": "m.login.password", "identifier": ["type": "m.id.user", "user": .string(username)],
            "password": .string(password.utf8String ?? ""), "refresh_token": true,
            "initial_device_display_name": .string(deviceNames(role)),
        ]
        let started = clock()
        let answer: (status: Int, json: JSONValue?, headers: HTTPFields)
        do throws(APIError) {
            answer = try await homeserver.exchange(
                .post, "/_matrix/client/v3/login", body: MatrixHomeserver.body(request), token: nil,
                operation: "login")
        } catch {
            throw .retryable(SessionError.message("the homeserver could not be reached", detail: error.description))
        }
        if answer.status == 403 || answer.status == 401 {
            // The wording the login command recognises as a wrong username or password.
            throw .failed(Route.login.pathBelowAPIBase + " answered 401 invalid_credentials [Matrix M_FORBIDDEN]")
        }
        guard (200..<300).contains(answer.status), let json = answer.json,
            let tokens = MatrixTokenProvider.tokens(from: json, deviceFallback: nil, now: started)
        else {
            let failure = MatrixHomeserver.failure(status: answer.status, json: answer.json, operation: "login")
            if failure.isRetryable { throw .retryable(failure.summary) }
            throw .failed(SessionError.message("the homeserver refused the login", detail: failure.description))
        }
        return tokens
    }
}

/// The access token of one Matrix device, refreshed with its refresh token
/// (`POST /_matrix/client/v3/refresh`) under the role's cross-process lock,
/// so the CLI and the daemon each refresh only their own device.
public struct MatrixTokenProvider: AccessTokenProvider {
    /// Whose device.
    public let role: SessionRole
    private let homeserver: MatrixHomeserver
    private let storage: any SessionTokenStorage
    private let locks: any CrossProcessLocking
    private let clock: @Sendable () -> Int64

    /// - Parameters:
    ///   - role: whose device.
    ///   - homeserver: the homeserver.
    ///   - storage: the account's token store.
    ///   - locks: the container's cross-process locks.
    ///   - clock: Unix seconds now.
    public init(
        role: SessionRole, homeserver: MatrixHomeserver, storage: any SessionTokenStorage,
        locks: any CrossProcessLocking, clock: @escaping @Sendable () -> Int64 = { UnixClock.system.seconds() }
    ) {
        self.role = role
        self.homeserver = homeserver
        self.storage = storage
        self.locks = locks
        self.clock = clock
    }

    /// The lock a role's refresh holds (its own name: the ShareKit
    /// sessions' locks are another account's business).
    static func lockName(_ role: SessionRole) -> String { "matrix-refresh-\(role.rawValue)" }

    /// What the token store keeps for a homeserver that gave no refresh
    /// token (its access token then does not expire): the store keeps no
    /// empty token.
    static let noRefreshToken = "-"

    /// A token expiring within this many seconds is refreshed before use.
    static let leewaySeconds: Int64 = 30

    /// The stored access token, refreshed first when it is about to expire.
    public func currentAccessToken() async throws(SessionError) -> AccessToken {
        guard let stored = try storage.read(role) else { throw .unavailable(.noTokens) }
        guard stored.accessTokenNeedsRefresh(at: clock(), leeway: Self.leewaySeconds) else {
            return stored.currentAccessToken
        }
        return try await refresh(unless: { !$0.accessTokenNeedsRefresh(at: clock(), leeway: Self.leewaySeconds) })
            .currentAccessToken
    }

    /// The homeserver refused `token` (`M_UNKNOWN_TOKEN`, soft logout):
    /// refresh it, unless another process did already.
    public func reportRejected(token: AccessToken) async {
        _ = try? await refresh(unless: { $0.accessToken != token.value })
    }

    private func refresh(unless fresh: @escaping @Sendable (SessionTokens) -> Bool) async throws(SessionError)
        -> SessionTokens
    {
        let outcome: Result<SessionTokens, SessionError>
        do {
            outcome = try await locks.withExclusiveLock(named: Self.lockName(role), pollingEvery: .milliseconds(20)) {
                await refreshHoldingLock(unless: fresh)
            }
        } catch {
            throw .failed("cannot take the \(role) device's refresh lock: \(error)")
        }
        return try outcome.get()
    }

    private func refreshHoldingLock(unless fresh: @Sendable (SessionTokens) -> Bool) async -> Result<
        SessionTokens, SessionError
    > {
        let stored: SessionTokens
        do throws(SessionError) {
            guard let read = try storage.read(role) else { return .failure(.unavailable(.noTokens)) }
            stored = read
        } catch {
            return .failure(error)
        }
        if fresh(stored) { return .success(stored) }
        // A homeserver that gave no refresh token: only a new login helps.
        if stored.refreshToken.utf8String == Self.noRefreshToken { return .failure(.unavailable(.refreshExpired)) }
        let started = clock()
        let body: JSONValue = ["refresh_token": .string(stored.refreshToken.utf8String ?? "")]
        let answer: (status: Int, json: JSONValue?, headers: HTTPFields)
        do throws(APIError) {
            answer = try await homeserver.exchange(
                .post, "/_matrix/client/v3/refresh", body: MatrixHomeserver.body(body), token: nil,
                operation: "refresh")
        } catch {
            return .failure(.retryable(error.summary))
        }
        if answer.status == 401 || answer.status == 403 {
            // The refresh token is gone too: only a new login helps.
            return .failure(.unavailable(.revoked))
        }
        guard (200..<300).contains(answer.status), let json = answer.json,
            let tokens = Self.tokens(from: json, deviceFallback: stored.sessionID, now: started)
        else {
            return .failure(.retryable("the homeserver answered the refresh with \(answer.status)"))
        }
        do throws(SessionError) {
            try storage.write(tokens, for: role)
        } catch {
            return .failure(error)
        }
        return .success(tokens)
    }

    /// The tokens of a login or refresh answer; nil when it lacks them.
    /// A missing `expires_in_ms` means a token that does not expire; a
    /// refresh token has no announced expiry in Matrix.
    static func tokens(from json: JSONValue, deviceFallback: String?, now: Int64) -> SessionTokens? {
        guard let access = json["access_token"]?.stringValue, !access.isEmpty,
            let device = json["device_id"]?.stringValue ?? deviceFallback
        else { return nil }
        // The last second of the year 9999, the latest time the token store keeps.
        let never: Int64 = 253_402_300_799
        var expires = never
        if let milliseconds = json["expires_in_ms"]?.integerValue, milliseconds > 0 {
            expires = min(now + min(milliseconds / 1000, never), never)
        }
        let refresh = json["refresh_token"]?.stringValue ?? ""
        return SessionTokens(
            sessionID: MatrixText.printable(device, limit: 128), accessToken: SecretValue(utf8: access),
            accessExpiresAt: expires, refreshToken: SecretValue(utf8: refresh.isEmpty ? noRefreshToken : refresh),
            refreshExpiresAt: never, obtainedAt: now)
    }
}
