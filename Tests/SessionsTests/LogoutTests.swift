import ShareKitHTTPInterfaceTesting
import ShareKitKeychainInterface
import ShareKitSessions
import ShareKitSessionsInterface
import ShareKitSessionsInterfaceTesting
import ShareKitSharedStateInterfaceTesting
import ShareKitSystemTesting
import Testing

/// `SessionIssuer.logout(parent:)`: the server ends the session and its
/// children; best effort, so every failure is reported, never hidden.
@Suite("sessions: logout")
struct LogoutTests {
    @Test("logout revokes the parent and its child on the server; the stored tokens stay for the caller to delete")
    func revokesFamilyOnServer() async throws {
        let fixture = try SessionFixture()
        defer { fixture.close() }
        let parent = try await fixture.signIn()
        let parentToken = try await parent.currentAccessToken()
        let child = try #require(try fixture.storage.read(.child))

        #expect(try await fixture.issuer.logout(parent: parent) == .revoked)
        #expect(try await fixture.status(token: parentToken) == 401)
        #expect(try await fixture.status(token: child.currentAccessToken) == 401)
        #expect(try fixture.storage.read(.parent) != nil, "deleting is the caller's step")

        // A second logout finds the session ended and says so.
        #expect(try await fixture.issuer.logout(parent: parent) == .alreadyEnded(.revoked))
    }

    @Test("an expired access token is refreshed once, then the session is ended")
    func expiredAccessToken() async throws {
        let fixture = try SessionFixture()
        defer { fixture.close() }
        try await fixture.signIn()
        try fixture.markExpired(.parent)
        let parent = fixture.provider(.parent)
        #expect(try await fixture.issuer.logout(parent: parent) == .revoked)
        let log = fixture.stopServer()
        #expect(SessionFixture.refreshCount(log, status: 200) == 1)
        #expect(log.contains("POST /api/v1/auth/logout 204"))
    }

    @Test("no stored session: nothing to end, no request")
    func noSession() async throws {
        let fixture = try SessionFixture()
        defer { fixture.close() }
        #expect(try await fixture.issuer.logout(parent: fixture.provider(.parent)) == .alreadyEnded(.noTokens))
        #expect(!fixture.stopServer().contains("/auth/logout"))
    }

    @Test("the server is down: retryable, so the caller can say the server was not told")
    func serverDown() async throws {
        let fixture = try SessionFixture()
        defer { fixture.close() }
        let parent = try await fixture.signIn()
        _ = fixture.stopServer()
        let error = await #expect(throws: SessionError.self) { try await fixture.issuer.logout(parent: parent) }
        #expect(error?.isRetryable == true, "\(String(describing: error))")
    }

    @Test("deleteStoredSession removes one family's item and leaves the other")
    func deleteStoredSession() async throws {
        let fixture = try SessionFixture()
        defer { fixture.close() }
        try await fixture.signIn()
        try await fixture.issuer.deleteStoredSession(.child)
        #expect(try fixture.storage.read(.child) == nil)
        #expect(try fixture.storage.read(.parent) != nil)
        try await fixture.issuer.deleteStoredSession(.child)  // deleting nothing is fine
    }

    @Test("wrong credentials are told apart from other login failures")
    func wrongCredentials() async throws {
        let fixture = try SessionFixture()
        defer { fixture.close() }
        let error = await #expect(throws: SessionError.self) {
            try await fixture.issuer.login(username: "alex", password: SecretValue(utf8: "wrong"))
        }
        #expect(error.map(\.isWrongCredentials) == true)
        #expect(!SessionError.retryable("/auth/login: cannot connect").isWrongCredentials)
        #expect(!SessionError.failed("/auth/login answered 400 bad_request").isWrongCredentials)
    }
}
