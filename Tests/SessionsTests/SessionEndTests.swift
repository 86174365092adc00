import Foundation
import HTTPInterface
import HTTPInterfaceTesting
import HTTPTypes
import KeychainInterface
import Sessions
import SessionsInterface
import SessionsInterfaceTesting
import SharedStateInterfaceTesting
import SystemTesting
import TestSupport
import Testing

/// When the server ends a session: the family's tokens are deleted, the
/// caller hears "session unavailable", and the other family is untouched.
@Suite("sessions: revoked, reused, expired")
struct SessionEndTests {
    @Test("a revoked child: refresh answers session_revoked, the child item is deleted, the parent item remains")
    func revokedChild() async throws {
        let fixture = try SessionFixture()
        defer { fixture.close() }
        let parent = try await fixture.signIn()
        let child = try #require(try fixture.storage.read(.child))
        let admin = try fixture.server.admin(["revoke-session", "--session", child.sessionID])
        #expect(admin.status == 0, "admin failed: \(admin.stderr)")
        try fixture.markExpired(.child)

        let events = EventLog()
        let provider = fixture.provider(.child, observer: events.observer)
        await #expect(throws: SessionError.unavailable(.revoked)) { try await provider.currentAccessToken() }
        #expect(try fixture.storage.read(.child) == nil)
        #expect(try fixture.storage.read(.parent) != nil)
        #expect(events.all.contains(.dropped(.revoked)))
        // Later calls need no server: there is nothing to refresh.
        await #expect(throws: SessionError.unavailable(.noTokens)) { try await provider.currentAccessToken() }
        #expect(try await fixture.status(token: try await parent.currentAccessToken()) == 200)
    }

    @Test("revoked while the access token still looks valid: the sender's 401 and reportRejected lead to unavailable")
    func revokedNoticedOnUse() async throws {
        let fixture = try SessionFixture()
        defer { fixture.close() }
        try await fixture.signIn()
        let provider = fixture.provider(.child)
        let token = try await provider.currentAccessToken()
        let admin = try fixture.server.admin(["revoke-session", "--session", token.sessionID])
        #expect(admin.status == 0, "admin failed: \(admin.stderr)")

        let response = try await fixture.send(
            HTTPClientRequest(method: .get, url: fixture.origin + "/api/v1/spaces"), token: token)
        #expect(response.status == 401)
        await provider.reportRejected(token: token)
        await #expect(throws: SessionError.unavailable(.revoked)) { try await provider.currentAccessToken() }
        #expect(try fixture.storage.read(.child) == nil)
        #expect(try fixture.storage.read(.parent) != nil)
    }

    @Test("a stale copy of a rotated refresh token: refresh_reuse, the child item is deleted, the parent lives on")
    func reuseDeletesTokens() async throws {
        let fixture = try SessionFixture()
        defer { fixture.close() }
        let parent = try await fixture.signIn()
        let stale = try #require(try fixture.storage.read(.child))
        try fixture.markExpired(.child)
        _ = try await fixture.provider(.child).currentAccessToken()  // rotates: `stale` is spent now

        // A stale pair comes back (a restored backup, a program that kept
        // its own copy): presenting it is reuse, and the server ends the family.
        var replay = stale
        replay.accessExpiresAt = replay.obtainedAt
        try fixture.storage.write(replay, for: .child)
        let events = EventLog()
        let provider = fixture.provider(.child, observer: events.observer)
        await #expect(throws: SessionError.unavailable(.refreshReuse)) { try await provider.currentAccessToken() }
        #expect(try fixture.storage.read(.child) == nil)
        #expect(try fixture.storage.read(.parent) != nil)
        #expect(events.all.contains(.dropped(.refreshReuse)))
        #expect(try await fixture.reuseAudit().count == 1, "the server recorded the reuse")
        #expect(try await fixture.status(token: try await parent.currentAccessToken()) == 200)
    }

    @Test("a refresh whose answer was lost: the next attempt says retry, the server rotates again, no reuse")
    func lostRefreshAnswer() async throws {
        let fixture = try SessionFixture()
        defer { fixture.close() }
        try await fixture.signIn()
        try fixture.markExpired(.child)
        var sent = try #require(try fixture.storage.read(.child))
        // The refresh reaches the server and commits; its answer never arrives.
        #expect(try await fixture.rawRefresh(sent.refreshToken).status == 200)
        sent.refreshAttempted = true  // as the provider stores it before it sends
        try fixture.storage.write(sent, for: .child)

        let token = try await fixture.provider(.child).currentAccessToken()
        #expect(try await fixture.status(token: token) == 200)
        #expect(try fixture.storage.read(.child)?.refreshAttempted == false)
        #expect(try await fixture.reuseAudit().isEmpty, "a lost answer is not reuse")
    }

    @Test("the retry's answer is lost too: the next attempt is retry number 2, the server rotates again, no reuse")
    func lostRetryAnswer() async throws {
        let fixture = try SessionFixture()
        defer { fixture.close() }
        try await fixture.signIn()
        try fixture.markExpired(.child)
        let before = try #require(try fixture.storage.read(.child))
        // The refresh commits and its answer is lost; so does the provider's retry.
        #expect(try await fixture.rawRefresh(before.refreshToken).status == 200)
        var marked = before
        marked.refreshAttempted = true
        try fixture.storage.write(marked, for: .child)
        #expect(try await fixture.rawRefresh(before.refreshToken, retry: true).status == 200)
        marked.refreshRetries = 1  // as the provider stores it before it sends its first retry
        try fixture.storage.write(marked, for: .child)

        let token = try await fixture.provider(.child).currentAccessToken()
        #expect(try await fixture.status(token: token) == 200)
        let stored = try #require(try fixture.storage.read(.child))
        #expect(!stored.refreshAttempted && stored.refreshRetries == 0, "a fresh pair carries no marks")
        #expect(try await fixture.reuseAudit().isEmpty, "two lost answers are not reuse")
    }

    @Test("the retry count survives in the keychain item, and a count out of range is not a session")
    func retryCountStored() async throws {
        let fixture = try SessionFixture()
        defer { fixture.close() }
        try await fixture.signIn()
        var marked = try #require(try fixture.storage.read(.child))
        marked.refreshAttempted = true
        marked.refreshRetries = 2
        try fixture.storage.write(marked, for: .child)
        #expect(try fixture.storage.read(.child)?.refreshRetries == 2)
        marked.refreshRetries = 101
        try fixture.storage.write(marked, for: .child)
        #expect(throws: SessionError.self, "written by no code of ours") { try fixture.storage.read(.child) }
    }

    @Test("retry is no way around reuse detection: without it, or once the lost pair was used, the family ends")
    func retryIsNarrow() async throws {
        let fixture = try SessionFixture()
        defer { fixture.close() }
        try await fixture.signIn()
        try fixture.markExpired(.child)
        let spent = try #require(try fixture.storage.read(.child))
        let answer = try await fixture.rawRefresh(spent.refreshToken)
        let object = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
        let access = try #require(object?["access_token"] as? String)
        // Whoever got that answer used its access token: the answer was not lost.
        let used = AccessToken(sessionID: spent.sessionID, value: SecretValue(utf8: access), expiresAt: Int64.max)
        #expect(try await fixture.status(token: used) == 200)
        #expect(try await fixture.rawRefresh(spent.refreshToken, retry: true).status == 401)
        #expect(try await fixture.reuseAudit().count == 1)

        // And a second family: the old token presented without retry is reuse
        // (docs/protocol.md, "Reuse detection").
        let other = try SessionFixture()
        defer { other.close() }
        try await other.signIn()
        let old = try #require(try other.storage.read(.child))
        #expect(try await other.rawRefresh(old.refreshToken).status == 200)
        #expect(try await other.rawRefresh(old.refreshToken).status == 401)
        #expect(try await other.reuseAudit().count == 1)
    }

    @Test("an expired refresh token: token_expired, the child item is deleted")
    func expiredRefreshToken() async throws {
        let fixture = try SessionFixture(seed: [
            "users": [["username": SessionFixture.username, "password": SessionFixture.password]],
            "tokens": ["access_ttl_seconds": 300, "refresh_ttl_seconds": 1],
        ])
        defer { fixture.close() }
        try await fixture.signIn()
        // The child's refresh token lives one second from the server's
        // issuing second, which is no later than now: wait until the clock
        // has passed it (polling the clock, nothing else to wait for).
        let issuedBy = SessionClock.system()
        while SessionClock.system() < issuedBy + 1 { try await Task.sleep(for: .milliseconds(50)) }
        try fixture.markExpired(.child)

        let provider = fixture.provider(.child)
        await #expect(throws: SessionError.unavailable(.refreshExpired)) { try await provider.currentAccessToken() }
        #expect(try fixture.storage.read(.child) == nil)
        #expect(try fixture.storage.read(.parent) != nil)
    }

    @Test("a refresh token the server never issued: invalid_grant, the child item is deleted")
    func unknownRefreshToken() async throws {
        let fixture = try SessionFixture()
        defer { fixture.close() }
        try await fixture.signIn()
        var bogus = try #require(try fixture.storage.read(.child))
        bogus.refreshToken = SecretValue(utf8: "not-a-token-the-server-issued")
        bogus.accessExpiresAt = bogus.obtainedAt
        try fixture.storage.write(bogus, for: .child)

        await #expect(throws: SessionError.unavailable(.invalidGrant)) {
            try await fixture.provider(.child).currentAccessToken()
        }
        #expect(try fixture.storage.read(.child) == nil)
    }

    @Test("no stored tokens: unavailable without a request")
    func noTokens() async throws {
        let fixture = try SessionFixture()
        defer { fixture.close() }
        await #expect(throws: SessionError.unavailable(.noTokens)) {
            try await fixture.provider(.child).currentAccessToken()
        }
        #expect(SessionFixture.refreshCount(fixture.stopServer()) == 0)
    }

    @Test("the server is down during a refresh: retryable, and the stored pair is kept for later")
    func serverDownIsRetryable() async throws {
        let fixture = try SessionFixture()
        defer { fixture.close() }
        try await fixture.signIn()
        try fixture.markExpired(.child)
        let stored = try fixture.storage.read(.child)
        _ = fixture.stopServer()

        let provider = fixture.provider(.child)
        let error = await #expect(throws: SessionError.self) { try await provider.currentAccessToken() }
        #expect(error?.isRetryable == true, "\(String(describing: error))")
        var attempted = stored
        attempted?.refreshAttempted = true
        #expect(try fixture.storage.read(.child) == attempted, "kept, marked as sent once")
    }
}
