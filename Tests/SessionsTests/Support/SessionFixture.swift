import Foundation
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitDPoP
import ShareKitHTTPInterface
import ShareKitHTTPInterfaceTesting
import ShareKitHTTPTransport
import ShareKitHTTPTypes
import ShareKitKeychainInterface
import ShareKitSessions
import ShareKitSessionsInterface
import ShareKitSessionsInterfaceTesting
import ShareKitSharedState
import ShareKitSharedStateInterface
import ShareKitSharedStateInterfaceTesting
import ShareKitSystemTesting
import ShareKitTestSupport

/// One person's client side against a real `share-server`: a keychain
/// directory and a container directory of their own (what the CLI and the
/// daemon share), the client assembly over them, the DPoP client on
/// libcurl, and the session pieces built the way the apps build them.
///
/// Helper processes started through ``helper(_:_:)`` get the same two
/// directories, so they are further programs of the same app group.
final class SessionFixture: @unchecked Sendable {
    static let username = "alex"
    static let password = "alex-demo-pass"

    let sandbox: ClientSandbox
    var server: ServerProcess { sandbox.server }
    var home: TemporaryDirectory { sandbox.home }
    /// `SHAREKIT_KEYCHAIN*` and `SHAREKIT_CONTAINER_DIR` of this app group.
    var environment: [String: String] { sandbox.environment }
    var assembly: ClientAssembly { sandbox.assembly }
    var connection: ServerConnection { sandbox.connection }
    var signed: any DPoPSigningHTTPClient { sandbox.connection.signed }
    var storage: any SessionTokenStorage { sandbox.connection.storage }
    var issuer: any SessionIssuing { sandbox.connection.issuer }

    /// Starts a server (demo seed unless given) and prepares the client side.
    init(seed: [String: Any]? = nil) throws {
        sandbox = try ClientSandbox(seed: seed, prefix: "sessions-test")
    }

    var origin: String { server.origin }
    var locksPath: String { assembly.container.locksPath }

    /// A provider for a role over this app group, as an app builds it.
    func provider(
        _ role: SessionRole, observer: (@Sendable (SessionRefreshEvent) -> Void)? = nil
    ) -> any AccessTokenProvider {
        RefreshingTokenProvider(
            role: role, serverOrigin: origin, storage: storage, client: signed, locks: assembly.container.locks,
            observer: observer)
    }

    /// What the daemon does at first start: log in (parent family) and make
    /// the CLI's child session.
    /// - Returns: the daemon's parent provider.
    @discardableResult
    func signIn(password: String = SessionFixture.password) async throws -> any AccessTokenProvider {
        try await issuer.login(username: Self.username, password: SecretValue(utf8: password))
        let parent = provider(.parent)
        try await issuer.ensureChildSession(parent: parent)
        return parent
    }

    /// Makes the stored access token of a role look expired to the client
    /// (the server still accepts it): a deterministic stand-in for waiting
    /// out the access lifetime.
    func markExpired(_ role: SessionRole) throws {
        guard var tokens = try storage.read(role) else { throw FixtureError("no \(role) session stored") }
        let now = SessionClock.system()
        tokens.obtainedAt = now - 400
        tokens.accessExpiresAt = now - 100
        try storage.write(tokens, for: role)
    }

    /// The status of `GET path` sent with a token.
    func status(_ path: String = "/api/v1/spaces", token: AccessToken) async throws -> Int {
        try await signed.send(
            HTTPClientRequest(method: .get, url: origin + path), accessToken: token.plainText
        ).status
    }

    /// The response of a request sent with a token.
    func send(_ request: HTTPClientRequest, token: AccessToken) async throws -> HTTPClientResponse {
        try await signed.send(request, accessToken: token.plainText)
    }

    /// POSTs `/auth/refresh` with this device's key behind the providers'
    /// backs: a refresh whose answer the client never read.
    func rawRefresh(_ refreshToken: SecretValue, retry: Bool = false) async throws -> HTTPClientResponse {
        var body: [String: Any] = ["refresh_token": refreshToken.utf8String ?? ""]
        if retry { body["retry"] = true }
        var headers = HTTPFields()
        headers.set("Content-Type", "application/json")
        return try await signed.send(
            HTTPClientRequest(
                method: .post, url: origin + "/api/v1/auth/refresh", headers: headers,
                body: .bytes([UInt8](try JSONSerialization.data(withJSONObject: body)))),
            accessToken: nil)
    }

    /// The server's `refresh_reuse` audit records, read with the parent session.
    func reuseAudit() async throws -> [[String: Any]] {
        let token = try await provider(.parent).currentAccessToken()
        let response = try await signed.send(
            HTTPClientRequest(method: .get, url: origin + "/api/v1/audit?kind=refresh_reuse"),
            accessToken: token.plainText)
        guard response.status == 200,
            let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
            let items = object["items"] as? [[String: Any]]
        else { throw FixtureError("audit answered \(response.status)") }
        return items
    }

    /// Starts `ShareTestHelper session-token <role> <origin> <flags>` in this app group.
    func helper(_ role: SessionRole, _ flags: [String] = []) throws -> HelperProcess {
        try HelperProcess(["session-token", role.rawValue, origin] + flags, environment: environment)
    }

    /// Starts a helper that holds a family's refresh lock until told to let go.
    func holdRefreshLock(_ role: SessionRole) throws -> HelperProcess {
        let holder = try HelperProcess(["lock-hold", locksPath, RefreshingTokenProvider.lockName(for: role)])
        guard holder.readLine() == "locked" else { throw FixtureError("lock-hold did not take the lock") }
        return holder
    }

    /// Stops the server gracefully, which finishes and logs every request,
    /// and returns its complete request log.
    func stopServer() -> String { sandbox.stopServer() }

    /// How many `POST /api/v1/auth/refresh` the server logged (with `status`: only those).
    static func refreshCount(_ log: String, status: Int? = nil) -> Int {
        let prefix = "POST /api/v1/auth/refresh " + (status.map { "\($0) " } ?? "")
        return log.split(separator: "\n").filter { $0.contains(prefix) }.count
    }

    /// Stops everything and removes the directories.
    func close() { sandbox.close() }
}

/// A fixture step failed.
struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
