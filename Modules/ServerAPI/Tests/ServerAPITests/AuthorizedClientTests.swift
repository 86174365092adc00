import ShareKitHTTPInterface
import ShareKitHTTPInterfaceTesting
import ShareKitHTTPTypes
import ShareKitKeychainInterface
import ShareKitServerAPI
import ShareKitServerAPIInterface
import ShareKitSessionsInterface
import ShareKitSessionsInterfaceTesting
import Synchronization
import Testing

@Suite("the authorized API client: token, one refresh, classification, decoding")
struct AuthorizedClientTests {
    struct Answer: Sendable {
        var status: Int
        var body: String = ""
        var headers: HTTPFields = [:]
    }

    /// A transport that answers from a script and a provider whose token
    /// changes with every reported rejection, counting both (the shared fakes, paired).
    struct Script {
        let client: ScriptedHTTPClient
        let tokens: StubTokenProvider

        init(_ answers: [Answer], unavailable: Bool = false) {
            client = ScriptedHTTPClient(
                answers.map { .raw($0.status, $0.body, headers: $0.headers) },
                whenExhausted: .answer(.failure(.connectionLost("the script has no more answers"))))
            tokens = StubTokenProvider(
                token: "token", sessionID: "ses_1", rotatesOnRejection: true,
                failure: unavailable ? .unavailable(.revoked) : nil)
        }

        var tokensSent: [String?] { client.sent.map(\.accessToken) }
    }

    struct Thing: Decodable, Sendable, Equatable {
        var id: String
    }

    static func client(_ script: Script) -> AuthorizedClient {
        AuthorizedClient(origin: "http://127.0.0.1:9/", client: script.client, tokens: script.tokens)
    }

    @Test("the path goes below the origin; the answer is decoded")
    func decodes() async throws {
        let script = Script([Answer(status: 200, body: #"{"id":"t1","extra":true}"#)])
        let (thing, response) = try await Self.client(script).send(
            APIRequest("getThing", path: "/api/v1/things/t1"), decoding: Thing.self)
        #expect(thing == Thing(id: "t1") && response.status == 200)
        #expect(script.client.requests.map(\.url) == ["http://127.0.0.1:9/api/v1/things/t1"])
        #expect(script.tokensSent == ["token-0"])
    }

    @Test("401 token_expired: the token is reported once and the request sent again with the new one")
    func refreshOnce() async throws {
        let script = Script([Answer(status: 401, body: #"{"code":"token_expired"}"#), Answer(status: 204)])
        let response = try await Self.client(script).send(APIRequest("deleteThing", method: .delete, path: "/x"))
        #expect(response.status == 204)
        #expect(script.tokensSent == ["token-0", "token-1"])
    }

    @Test("a second 401 ends the session; a 401 of another code is not refreshed")
    func noSecondRefresh() async {
        let twice = Script([
            Answer(status: 401, body: #"{"code":"invalid_token"}"#),
            Answer(status: 401, body: #"{"code":"invalid_token"}"#),
        ])
        await #expect(throws: APIError.sessionEnded("getThing: the server refused the session (invalid_token)")) {
            _ = try await Self.client(twice).send(APIRequest("getThing", path: "/x"))
        }
        #expect(twice.tokensSent.count == 2)
        let proof = Script([Answer(status: 401, body: #"{"code":"invalid_dpop_proof"}"#)])
        await #expect(throws: APIError.self) {
            _ = try await Self.client(proof).send(APIRequest("getThing", path: "/x"))
        }
        #expect(proof.tokensSent.count == 1)
        #expect(proof.tokens.rejections == 0)
    }

    @Test("no session: ended at once, nothing sent")
    func noSession() async {
        let script = Script([], unavailable: true)
        let error = await #expect(throws: APIError.self) {
            _ = try await Self.client(script).send(APIRequest("getThing", path: "/x"))
        }
        guard case .sessionEnded? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(script.tokensSent.isEmpty)
    }

    @Test("503 with Retry-After is retryable with the wait; a success that is not the answer type is retryable")
    func classified() async {
        let busy = Script([Answer(status: 503, body: #"{"code":"storage_unavailable"}"#, headers: ["Retry-After": "7"])]
        )
        let error = await #expect(throws: APIError.self) {
            _ = try await Self.client(busy).send(APIRequest("createMessage", method: .post, path: "/x"))
        }
        guard case .retryable(let retry)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(retry.retryAfter == .seconds(7) && retry.status == 503)
        let odd = Script([Answer(status: 200, body: #"{"name":"no id"}"#)])
        let unreadable = await #expect(throws: APIError.self) {
            _ = try await Self.client(odd).send(APIRequest("getThing", path: "/x"), decoding: Thing.self)
        }
        guard case .retryable(let why)? = unreadable, case .unreadableAnswer(200) = why.kind else {
            Issue.record("\(String(describing: unreadable))")
            return
        }
    }

    @Test("a cancelled call sends nothing")
    func cancelled() async {
        let script = Script([Answer(status: 200)])
        let cancellation = HTTPCancellation()
        cancellation.cancel()
        await #expect(throws: APIError.cancelled) {
            _ = try await Self.client(script).send(
                APIRequest("getThing", path: "/x"), options: APICallOptions(cancellation: cancellation))
        }
        #expect(script.tokensSent.isEmpty)
    }
}
