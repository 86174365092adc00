import ShareKitClientTestSupport
import ShareKitCore
import ShareKitHTTPInterface
import ShareKitHTTPInterfaceTesting
import ShareKitHTTPTypes
import ShareKitKeychainInterface
import ShareKitServerAPI
import ShareKitSessionsInterface
import ShareKitSessionsInterfaceTesting
import ShareKitSystemTesting
import ShareKitTargetStore
import ShareKitTargetStoreInterface
import Synchronization
import Testing

/// What a caller hears when the server, the network or the session cannot answer.
@Suite("targets: server stopped, no session, 401 and 5xx")
struct UnavailableTests {
    @Test("the server stopped: resolve and search are unavailable and retryable")
    func serverStopped() async throws {
        let fixture = try await TargetFixture()
        defer { fixture.close() }
        _ = fixture.sandbox.stopServer()
        let resolve = await targetError { try await fixture.directory.resolve("thread:t1") }
        guard case .unavailable(_, retryable: true)? = resolve else {
            Issue.record("resolve: \(String(describing: resolve))")
            return
        }
        #expect(resolve?.isRetryable == true)
        #expect(resolve?.description.contains("try again later") == true)
        let search = await targetError { try await fixture.directory.search(query: "gate", limit: 5) }
        #expect(search?.isRetryable == true)
    }

    @Test("no session: unavailable and not retryable, with no request sent")
    func noSession() async throws {
        let fixture = try await TargetFixture(signIn: false)
        defer { fixture.close() }
        let error = await targetError { try await fixture.directory.resolve("server > Gateway") }
        guard case .unavailable(let reason, retryable: false)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(reason.contains("session unavailable"))
        #expect(!fixture.sandbox.stopServer().contains("/api/v1/spaces"))
    }

    @Test("401 token_expired is reported once and retried; a second 401 needs a new sign-in")
    func expiredToken() async throws {
        let expired = Scripted.Answer(status: 401, body: #"{"code":"token_expired","status":401}"#)
        let spaces = Scripted.Answer(
            status: 200,
            body:
                #"[{"id":"s1","name":"server","channels":[{"id":"c1","name":"Gateway","kind":"chat","can_write":true}]}]"#
        )
        let once = Scripted(answers: [expired, spaces])
        let target = try await directory(once).resolve("channel:c1")
        #expect(target.displayPath == "server > Gateway")
        #expect(once.rejections == 1 && once.requests == 2)

        let twice = Scripted(answers: [expired, expired])
        let error = await targetError { try await directory(twice).resolve("channel:c1") }
        #expect(error?.isRetryable == false)
        #expect(error?.description.contains("token_expired") == true)
        #expect(twice.rejections == 1 && twice.requests == 2)
    }

    @Test("5xx and 429 are retryable; other refusals and unreadable answers say so")
    func statuses() async throws {
        let busy = Scripted(answers: [Scripted.Answer(status: 503, body: "")])
        #expect(await targetError { try await directory(busy).search(query: "x", limit: 5) }?.isRetryable == true)
        let limited = Scripted(answers: [Scripted.Answer(status: 429, body: "", retryAfter: "7")])
        let wait = await targetError { try await directory(limited).search(query: "x", limit: 5) }
        #expect(wait?.isRetryable == true && wait?.description.contains("7 seconds") == true)
        let refused = Scripted(answers: [Scripted.Answer(status: 400, body: #"{"code":"bad_request","detail":"no"}"#)])
        let bad = await targetError { try await directory(refused).search(query: "x", limit: 5) }
        #expect(bad?.isRetryable == false && bad?.description.contains("bad_request") == true)
    }

    private func directory(_ client: Scripted) -> ServerTargetDirectory {
        ServerTargetDirectory(
            api: AuthorizedClient(origin: "http://127.0.0.1:1", client: client.client, tokens: client.tokens),
            cacheLifetime: .zero)
    }
}

/// A transport and a token provider that answer from a script, counting
/// requests and reported rejections (the shared fakes, paired).
struct Scripted {
    struct Answer: Sendable {
        var status: Int
        var body: String
        var retryAfter: String?
    }

    let client: ScriptedHTTPClient
    let tokens = StubTokenProvider()

    init(answers: [Answer]) {
        client = ScriptedHTTPClient(
            answers.map { answer in
                var headers = HTTPFields()
                if let retryAfter = answer.retryAfter { headers.set("Retry-After", retryAfter) }
                return .raw(answer.status, answer.body, headers: headers)
            })
    }

    var requests: Int { client.requestCount }
    var rejections: Int { tokens.rejections }
}
