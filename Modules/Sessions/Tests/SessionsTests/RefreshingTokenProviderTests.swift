import Foundation
import ShareKitHTTPInterface
import ShareKitHTTPInterfaceTesting
import ShareKitHTTPTypes
import ShareKitKeychainInterface
import ShareKitKeychainInterfaceTesting
import ShareKitSessions
import ShareKitSessionsInterface
import ShareKitSessionsInterfaceTesting
import ShareKitSharedStateInterfaceTesting
import Synchronization
import Testing

/// A clock in Unix seconds the test moves.
final class SecondsClock: Sendable {
    let now = Mutex<Int64>(1_800_000_000)
    var source: @Sendable () -> Int64 { { self.now.withLock { $0 } } }
}

/// What a sender holding ``RefreshingTokenProvider`` sees: a valid token
/// without a request, one refresh when it expires or is rejected (however
/// many ask at once), the new pair stored before use, and a refused refresh
/// ending the session.
@Suite("RefreshingTokenProvider: refresh on expiry and rejection, once, stored first")
struct RefreshingTokenProviderTests {
    static let origin = "https://chat.example"

    func tokens(_ name: String, obtainedAt: Int64, lifetime: Int64 = 900) -> SessionTokens {
        SessionTokens(
            sessionID: "s-1", accessToken: SecretValue(utf8: "access-\(name)"), accessExpiresAt: obtainedAt + lifetime,
            refreshToken: SecretValue(utf8: "refresh-\(name)"), refreshExpiresAt: obtainedAt + 86400,
            obtainedAt: obtainedAt)
    }

    static func issued(_ name: String) -> Result<HTTPClientResponse, HTTPClientError> {
        .json(
            200,
            #"{"session_id":"s-1","access_token":"access-\#(name)","refresh_token":"refresh-\#(name)","#
                + #""token_type":"DPoP","expires_in":900,"refresh_expires_in":86400}"#)
    }

    func provider(_ http: ScriptedHTTPClient, _ storage: InMemoryTokenStorage, _ clock: SecondsClock)
        -> RefreshingTokenProvider
    {
        RefreshingTokenProvider(
            role: .child, serverOrigin: Self.origin + "/", storage: storage, client: http, locks: InProcessLocks(),
            clock: clock.source)
    }

    @Test("a token far from expiry is returned without a request; without a stored pair the session is unavailable")
    func validToken() async throws {
        let clock = SecondsClock()
        let storage = InMemoryTokenStorage()
        let http = ScriptedHTTPClient()
        let provider = provider(http, storage, clock)
        await #expect(throws: SessionError.unavailable(.noTokens)) { _ = try await provider.currentAccessToken() }
        try storage.write(tokens("a", obtainedAt: clock.now.withLock { $0 }), for: .child)
        #expect(try await provider.currentAccessToken().plainText == "access-a")
        #expect(http.requestCount == 0)
    }

    @Test("an expired token is refreshed once for eight callers at once; the new pair is stored")
    func expiredRefreshedOnce() async throws {
        let clock = SecondsClock()
        let storage = InMemoryTokenStorage()
        try storage.write(tokens("a", obtainedAt: clock.now.withLock { $0 }), for: .child)
        clock.now.withLock { $0 += 901 }
        let http = ScriptedHTTPClient([Self.issued("b")])
        let provider = provider(http, storage, clock)
        let seen = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 { group.addTask { try await provider.currentAccessToken().plainText } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(seen == ["access-b"])
        #expect(http.requestCount == 1)
        let request = try #require(http.requests.first)
        #expect(request.method == .post && request.url == Self.origin + "/api/v1/auth/refresh")
        guard case .bytes(let body) = request.body else {
            Issue.record("no body")
            return
        }
        let json = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
        #expect(json?["refresh_token"] as? String == "refresh-a")
        let stored = try #require(try storage.read(.child))
        #expect(stored.refreshToken == SecretValue(utf8: "refresh-b") && !stored.refreshAttempted)
    }

    @Test("a token the server rejected is refreshed even before its expiry")
    func rejected() async throws {
        let clock = SecondsClock()
        let storage = InMemoryTokenStorage()
        try storage.write(tokens("a", obtainedAt: clock.now.withLock { $0 }), for: .child)
        let http = ScriptedHTTPClient([Self.issued("b")])
        let provider = provider(http, storage, clock)
        let first = try await provider.currentAccessToken()
        await provider.reportRejected(token: first)
        #expect(try await provider.currentAccessToken().plainText == "access-b")
        #expect(http.requestCount == 1)
    }

    @Test("a revoked session ends: unavailable, and the refused pair is deleted; a 503 is retryable and keeps it")
    func refusedAndRetryable() async throws {
        let clock = SecondsClock()
        let storage = InMemoryTokenStorage()
        try storage.write(tokens("a", obtainedAt: clock.now.withLock { $0 } - 1000), for: .child)
        let busy = ScriptedHTTPClient([.json(503, #"{"code":"unavailable","status":503}"#)])
        await #expect { _ = try await provider(busy, storage, clock).currentAccessToken() } throws: { error in
            (error as? SessionError)?.isRetryable == true
        }
        // Kept, marked as attempted: the next refresh says it is a retry.
        #expect(try storage.read(.child)?.refreshAttempted == true)

        let revoked = ScriptedHTTPClient([.json(401, #"{"code":"session_revoked","status":401}"#)])
        await #expect(throws: SessionError.unavailable(.revoked)) {
            _ = try await provider(revoked, storage, clock).currentAccessToken()
        }
        #expect(try storage.read(.child) == nil)
        guard case .bytes(let body) = revoked.requests.first?.body else { return }
        #expect(String(decoding: body, as: UTF8.self).contains(#""retry":true"#))
    }
}

/// The session pair in the keychain: per server origin, and never in a description.
@Suite("SessionTokenStore: the pair per server in the secret store")
struct SessionTokenStoreTests {
    @Test("a pair written for one origin is read back there only; delete removes it; descriptions hide the tokens")
    func roundTrip() throws {
        let secrets = InMemorySecretStore()
        let chat = SessionTokenStore(
            secretStore: secrets, accessGroup: "group.test", serverOrigin: "https://chat.example")
        let other = SessionTokenStore(
            secretStore: secrets, accessGroup: "group.test", serverOrigin: "https://other.example")
        let pair = SessionTokens(
            sessionID: "s-9", accessToken: SecretValue(utf8: "very-secret-access"), accessExpiresAt: 2_000,
            refreshToken: SecretValue(utf8: "very-secret-refresh"), refreshExpiresAt: 90_000, obtainedAt: 1_000)
        try chat.write(pair, for: .parent)
        #expect(try chat.read(.parent) == pair)
        #expect(try chat.read(.child) == nil && other.read(.parent) == nil)
        #expect(!"\(pair)".contains("very-secret") && !String(reflecting: pair).contains("very-secret"))
        try chat.delete(.parent)
        #expect(try chat.read(.parent) == nil)
    }

    @Test("an item that is not a session pair is an error naming the item, not a crash")
    func corruptItem() throws {
        let secrets = InMemorySecretStore()
        let store = SessionTokenStore(
            secretStore: secrets, accessGroup: "group.test", serverOrigin: "https://chat.example")
        try secrets.write(SecretValue(utf8: "{\"session_id\": 12"), for: store.itemKey(for: .child))
        #expect(throws: SessionError.self) { _ = try store.read(.child) }
    }
}
