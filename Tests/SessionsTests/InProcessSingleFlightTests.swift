import ShareKitHTTPInterface
import ShareKitHTTPInterfaceTesting
import ShareKitHTTPTypes
import ShareKitKeychainInterface
import ShareKitSessions
import ShareKitSessionsInterface
import ShareKitSessionsInterfaceTesting
import ShareKitSharedStateInterfaceTesting
import ShareKitSystemTesting
import Testing

/// Refresh inside one process against a real `share-server`: many callers,
/// one refresh, and the new pair stored before it is handed out.
@Suite("sessions: single flight inside a process")
struct InProcessSingleFlightTests {
    @Test("16 concurrent callers with an expired child token cause exactly one POST /auth/refresh")
    func sixteenCallersOneRefresh() async throws {
        let fixture = try SessionFixture()
        defer { fixture.close() }
        try await fixture.signIn()
        let events = EventLog()
        let child = fixture.provider(.child, observer: events.observer)
        let before = try #require(try fixture.storage.read(.child))
        try fixture.markExpired(.child)

        let tokens = try await withThrowingTaskGroup(of: AccessToken.self) { group in
            for _ in 0..<16 { group.addTask { try await child.currentAccessToken() } }
            var tokens: [AccessToken] = []
            for try await token in group { tokens.append(token) }
            return tokens
        }

        #expect(tokens.count == 16)
        #expect(tokens.allSatisfy { $0 == tokens[0] }, "every caller got the one new token")
        #expect(tokens[0].value != before.accessToken)
        let stored = try #require(try fixture.storage.read(.child))
        #expect(stored.accessToken == tokens[0].value, "the handed-out token is the stored one")
        #expect(stored.refreshToken != before.refreshToken)
        #expect(events.lockWaits == 1 && events.persisted == 1)
        #expect(try await fixture.status(token: tokens[0]) == 200)
        #expect(try await fixture.reuseAudit().isEmpty)
        let log = fixture.stopServer()
        #expect(SessionFixture.refreshCount(log) == 1)
    }

    @Test("two providers of one family in one process still refresh once (the lock file serializes them)")
    func twoProvidersOneRefresh() async throws {
        let fixture = try SessionFixture()
        defer { fixture.close() }
        try await fixture.signIn()
        let events = EventLog()
        let first = fixture.provider(.child, observer: events.observer)
        let second = fixture.provider(.child, observer: events.observer)
        try fixture.markExpired(.child)

        let tokens = try await withThrowingTaskGroup(of: AccessToken.self) { group in
            for index in 0..<16 {
                let provider = index.isMultiple(of: 2) ? first : second
                group.addTask { try await provider.currentAccessToken() }
            }
            var tokens: [AccessToken] = []
            for try await token in group { tokens.append(token) }
            return tokens
        }

        #expect(tokens.allSatisfy { $0 == tokens[0] })
        #expect(events.persisted == 1)
        #expect(events.lockWaits == 1 + events.skipped, "a provider that waited found the work done")
        #expect(try await fixture.status(token: tokens[0]) == 200)
        #expect(SessionFixture.refreshCount(fixture.stopServer()) == 1)
    }

    @Test("a fresh token is handed out as stored, without a request")
    func freshTokenNoRefresh() async throws {
        let fixture = try SessionFixture()
        defer { fixture.close() }
        try await fixture.signIn()
        let events = EventLog()
        let child = fixture.provider(.child, observer: events.observer)
        let stored = try #require(try fixture.storage.read(.child))
        let token = try await child.currentAccessToken()
        #expect(token.value == stored.accessToken)
        #expect(token.sessionID == stored.sessionID)
        #expect(events.all.isEmpty)
        #expect(try await fixture.status(token: token) == 200)
        #expect(SessionFixture.refreshCount(fixture.stopServer()) == 0)
    }

    @Test("reportRejected: the next call refreshes once; a rejection of an already replaced token refreshes nothing")
    func rejectedTokenRefreshesOnce() async throws {
        let fixture = try SessionFixture()
        defer { fixture.close() }
        try await fixture.signIn()
        let events = EventLog()
        let child = fixture.provider(.child, observer: events.observer)
        let first = try await child.currentAccessToken()

        await child.reportRejected(token: first)
        let second = try await child.currentAccessToken()
        #expect(second != first)
        #expect(events.persisted == 1)
        #expect(try await child.currentAccessToken() == second, "one rejection, one refresh")

        // Another caller's late report of the old token: the stored pair no
        // longer holds it, so there is nothing to refresh.
        await child.reportRejected(token: first)
        #expect(try await child.currentAccessToken() == second)
        #expect(events.persisted == 1)
        #expect(try await fixture.status(token: second) == 200)
        // The rotated-away access token is unknown to the server now.
        #expect(try await fixture.status(token: first) == 401)
        #expect(SessionFixture.refreshCount(fixture.stopServer()) == 1)
    }

    @Test("the parent family is refreshed by its own provider and never touches the child's item")
    func familiesStayApart() async throws {
        let fixture = try SessionFixture()
        defer { fixture.close() }
        let parent = try await fixture.signIn()
        let childBefore = try #require(try fixture.storage.read(.child))
        let parentBefore = try #require(try fixture.storage.read(.parent))
        try fixture.markExpired(.parent)

        let token = try await parent.currentAccessToken()
        #expect(token.sessionID == parentBefore.sessionID)
        #expect(try fixture.storage.read(.parent)?.refreshToken != parentBefore.refreshToken)
        #expect(try fixture.storage.read(.child) == childBefore, "the child item is untouched")
        #expect(try await fixture.status(token: token) == 200)
        #expect(try await fixture.status(token: childBefore.currentAccessToken) == 200)
        #expect(SessionFixture.refreshCount(fixture.stopServer()) == 1)
    }
}
