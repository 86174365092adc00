import ShareKitHTTPInterfaceTesting
import ShareKitKeychainInterface
import ShareKitSessions
import ShareKitSessionsInterface
import ShareKitSessionsInterfaceTesting
import ShareKitSharedStateInterfaceTesting
import ShareKitSystemTesting
import Testing

/// What the daemon does with sessions: log in, make the CLI's child session.
@Suite("sessions: login and child sessions (the daemon's side)")
struct SessionIssuerTests {
    @Test("login stores the parent; ensureChildSession stores a child bound to the same key, and keeps it later")
    func loginAndChild() async throws {
        let fixture = try SessionFixture()
        defer { fixture.close() }
        let parent = try await fixture.signIn()
        let parentTokens = try #require(try fixture.storage.read(.parent))
        let child = try #require(try fixture.storage.read(.child))
        #expect(child.sessionID != parentTokens.sessionID)
        #expect(try await fixture.status(token: child.currentAccessToken) == 200)

        let again = try await fixture.issuer.ensureChildSession(parent: parent)
        #expect(again == child, "a stored child with a valid refresh token is kept")
        #expect(SessionFixture.refreshCount(fixture.stopServer()) == 0)
    }

    @Test("createChildSession replaces the child: the new one works, the old one is revoked by the server")
    func newChildReplacesOld() async throws {
        let fixture = try SessionFixture()
        defer { fixture.close() }
        let parent = try await fixture.signIn()
        let old = try #require(try fixture.storage.read(.child))
        let new = try await fixture.issuer.createChildSession(parent: parent)
        #expect(new.sessionID != old.sessionID)
        #expect(try fixture.storage.read(.child) == new)
        #expect(try await fixture.status(token: new.currentAccessToken) == 200)
        #expect(try await fixture.status(token: old.currentAccessToken) == 401)
    }

    @Test("the server refuses the parent's access token: the parent is refreshed once and the child made on retry")
    func refusedParentTokenRetriedOnce() async throws {
        let fixture = try SessionFixture()
        defer { fixture.close() }
        let parent = try await fixture.signIn()
        try fixture.storage.delete(.child)
        // An access token the server does not know, with a live refresh token:
        // the client believes it is fresh, the server answers 401 invalid_token.
        var parentTokens = try #require(try fixture.storage.read(.parent))
        parentTokens.accessToken = SecretValue(utf8: "an-access-token-the-server-never-issued")
        try fixture.storage.write(parentTokens, for: .parent)

        let child = try await fixture.issuer.ensureChildSession(parent: parent)
        #expect(try await fixture.status(token: child.currentAccessToken) == 200)
        #expect(try fixture.storage.read(.parent)?.refreshToken != parentTokens.refreshToken)
        #expect(SessionFixture.refreshCount(fixture.stopServer()) == 1)
    }

    @Test("a wrong password stores nothing and says so without the password")
    func wrongPassword() async throws {
        let fixture = try SessionFixture()
        defer { fixture.close() }
        let password = "wrong-pass-1234"
        let error = await #expect(throws: SessionError.self) {
            try await fixture.issuer.login(username: SessionFixture.username, password: SecretValue(utf8: password))
        }
        #expect(error.map { "\($0)".contains("invalid_credentials") && !"\($0)".contains(password) } == true)
        #expect(try fixture.storage.read(.parent) == nil)
    }
}
