import Foundation
import ShareKitHTTPInterface
import ShareKitHTTPInterfaceTesting
import ShareKitHTTPTypes
import ShareKitKeychainInterface
import ShareKitKeychainStore
import ShareKitSessions
import ShareKitSessionsInterface
import ShareKitSessionsInterfaceTesting
import ShareKitSharedStateInterfaceTesting
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// The values, the keychain items and the error mapping, without a server.
@Suite("sessions: values, storage and errors")
struct ValueAndErrorTests {
    static let access = "acc-Q2hhbmdlZEFjY2Vzc1Rva2VuVmFsdWU"
    static let refresh = "ref-UmVmcmVzaFRva2VuVmFsdWVTZWNyZXQ"

    static func tokens(now: Int64 = 1_000_000, lifetime: Int64 = 300, session: String = "ses_1") -> SessionTokens {
        SessionTokens(
            sessionID: session, accessToken: SecretValue(utf8: access), accessExpiresAt: now + lifetime,
            refreshToken: SecretValue(utf8: refresh), refreshExpiresAt: now + 86_400, obtainedAt: now)
    }

    @Test("expiring: the leeway counts before expiry, capped at half the lifetime")
    func leeway() {
        let long = Self.tokens(now: 1000, lifetime: 300)
        #expect(!long.accessTokenNeedsRefresh(at: 1269, leeway: 30))
        #expect(long.accessTokenNeedsRefresh(at: 1270, leeway: 30))
        #expect(long.accessTokenNeedsRefresh(at: 1300, leeway: 0))
        // A two-second token is fresh for its first second, not expired at birth.
        let short = Self.tokens(now: 1000, lifetime: 2)
        #expect(!short.accessTokenNeedsRefresh(at: 1000, leeway: 30))
        #expect(short.accessTokenNeedsRefresh(at: 1001, leeway: 30))
    }

    @Test("descriptions, debug descriptions and dumps of tokens and errors never show a token")
    func redaction() {
        let tokens = Self.tokens()
        var dumped = ""
        dump(tokens, to: &dumped)
        var dumpedAccess = ""
        dump(tokens.currentAccessToken, to: &dumpedAccess)
        let texts = [
            "\(tokens)", String(reflecting: tokens), dumped, "\(tokens.currentAccessToken)",
            String(reflecting: tokens.currentAccessToken), dumpedAccess,
        ]
        for text in texts {
            #expect(!text.contains(Self.access) && !text.contains(Self.refresh), "leaked in: \(text.count) characters")
        }
        #expect("\(tokens)".contains("ses_1"))
        #expect(tokens.currentAccessToken.plainText == Self.access)
    }

    @Test("each role has its own item, scoped to the server; a store for another server sees nothing")
    func itemsPerRoleAndServer() throws {
        let directory = try TemporaryDirectory(prefix: "sessions-store")
        defer { directory.remove() }
        let keychain = FileKeychain(directory: directory.file("keychain"))
        let store = SessionTokenStore(
            secretStore: keychain, accessGroup: "sharekit", serverOrigin: "http://127.0.0.1:1/")
        #expect(store.itemKey(for: .child).service == "session.share_ext")
        #expect(store.itemKey(for: .parent).service == "session.app")
        #expect(store.itemKey(for: .child).scope == "http://127.0.0.1:1")

        try store.write(Self.tokens(session: "ses_child"), for: .child)
        #expect(try store.read(.child) == Self.tokens(session: "ses_child"))
        #expect(try store.read(.parent) == nil)
        let other = SessionTokenStore(
            secretStore: keychain, accessGroup: "sharekit", serverOrigin: "http://127.0.0.1:2")
        #expect(try other.read(.child) == nil)
        try store.write(Self.tokens(session: "ses_parent"), for: .parent)
        try store.delete(.child)
        #expect(try store.read(.child) == nil)
        #expect(try store.read(.parent)?.sessionID == "ses_parent")
        try store.delete(.child)  // deleting nothing is fine
    }

    @Test("an item that is not a stored session is an error that does not quote it")
    func corruptItem() throws {
        let directory = try TemporaryDirectory(prefix: "sessions-store")
        defer { directory.remove() }
        let keychain = FileKeychain(directory: directory.file("keychain"))
        let store = SessionTokenStore(secretStore: keychain, accessGroup: "sharekit", serverOrigin: "http://h")
        try keychain.write(
            SecretValue(utf8: "{\"v\":1,\"access_token\":\"\(Self.access)\"}"), for: store.itemKey(for: .child))
        let error = #expect(throws: SessionError.self) { try store.read(.child) }
        #expect(error.map { !"\($0)".contains(Self.access) } == true)
    }

    @Test(
        "refresh answers map to outcomes: 5xx, 429 and transport failures are retryable and keep the tokens",
        arguments: [
            (.json(503, #"{"code":"unavailable"}"#), true),
            (.json(429, #"{"code":"rate_limited"}"#), true),
            (.json(400, #"{"error":"use_dpop_nonce"}"#), true),
            (.failure(HTTPClientError.cannotConnect("refused")), true),
            (.failure(HTTPClientError.timedOut(.total)), true),
            (.json(400, #"{"code":"bad_request"}"#), false),
            (.json(401, #"{"code":"invalid_dpop_proof"}"#), false),
            (.json(200, #"{"access_token":"x"}"#), false),
            (.failure(HTTPClientError.tlsFailure("untrusted")), false),
        ] as [(Result<HTTPClientResponse, HTTPClientError>, Bool)])
    func passingFailures(answer: Result<HTTPClientResponse, HTTPClientError>, retryable: Bool) async throws {
        let storage = InMemoryTokenStorage()
        let stored = Self.tokens(now: 1000, lifetime: 300)
        try storage.write(stored, for: .child)
        let client = ScriptedHTTPClient([answer], whenExhausted: .repeatLast)
        let provider = RefreshingTokenProvider(
            role: .child, serverOrigin: "http://h", storage: storage, client: client, locks: InProcessLocks(),
            clock: { 2000 })
        let error = await #expect(throws: SessionError.self) { try await provider.currentAccessToken() }
        #expect(error?.isRetryable == retryable)
        #expect(error.map { !"\($0)".contains(Self.access) && !"\($0)".contains(Self.refresh) } == true)
        // The same pair, marked as sent once: the next attempt says it is a retry.
        var attempted = stored
        attempted.refreshAttempted = true
        #expect(try storage.read(.child) == attempted, "a refusal that is not an end of the session keeps the tokens")
        #expect(client.requests.count == 1)
        guard case .bytes(let body)? = client.requests.first?.body else {
            Issue.record("the refresh had no JSON body")
            return
        }
        #expect(!String(decoding: body, as: UTF8.self).contains("retry"), "a first attempt is not a retry")
        #expect(client.requests.first?.url == "http://h/api/v1/auth/refresh")
    }

    @Test(
        "401 session_revoked, refresh_reuse, token_expired and invalid_grant end the session",
        arguments: [
            ("session_revoked", SessionUnavailableReason.revoked), ("refresh_reuse", .refreshReuse),
            ("token_expired", .refreshExpired), ("invalid_grant", .invalidGrant),
        ])
    func endingAnswers(code: String, reason: SessionUnavailableReason) async throws {
        let storage = InMemoryTokenStorage()
        try storage.write(Self.tokens(now: 1000), for: .child)
        try storage.write(Self.tokens(now: 1000, session: "ses_parent"), for: .parent)
        let provider = RefreshingTokenProvider(
            role: .child, serverOrigin: "http://h", storage: storage,
            client: ScriptedHTTPClient(
                [.json(401, "{\"code\":\"\(code)\"}")], whenExhausted: .repeatLast),
            locks: InProcessLocks(), clock: { 2000 })
        await #expect(throws: SessionError.unavailable(reason)) { try await provider.currentAccessToken() }
        #expect(try storage.read(.child) == nil)
        #expect(try storage.read(.parent) != nil)
        #expect("\(SessionError.unavailable(reason))".hasPrefix("session unavailable"))
    }
}
