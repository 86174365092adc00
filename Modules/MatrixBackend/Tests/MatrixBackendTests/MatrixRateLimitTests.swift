import ShareKitCore
import ShareKitHTTPInterface
import ShareKitServerAPIInterface
import ShareKitSessionsInterface
import Synchronization
import Testing

@testable import ShareKitMatrixBackend

/// Waiting out `M_LIMIT_EXCEEDED` inline, against a homeserver whose
/// answers are scripted (hostile input: any wait, any number of times).
@Suite struct MatrixRateLimitTests {
    /// Answers each request with the next scripted answer (the last one repeats).
    final class ScriptedHomeserver: HTTPClient {
        private let answers: [HTTPClientResponse]
        private let served = Mutex(0)

        init(_ answers: [HTTPClientResponse]) { self.answers = answers }

        var requests: Int { served.withLock { $0 } }

        func send(_ request: HTTPClientRequest, options: HTTPRequestOptions) async throws(HTTPClientError)
            -> HTTPClientResponse
        {
            let index = served.withLock { count in
                count += 1
                return count - 1
            }
            return answers[min(index, answers.count - 1)]
        }
    }

    static func limited(_ milliseconds: Int) -> HTTPClientResponse {
        HTTPClientResponse(
            status: 429, body: Array(#"{"errcode":"M_LIMIT_EXCEEDED","retry_after_ms":\#(milliseconds)}"#.utf8))
    }

    static let sent = HTTPClientResponse(status: 200, body: Array(#"{"event_id":"$e"}"#.utf8))

    static func call(_ homeserver: MatrixHomeserver) async throws(APIError) -> JSONValue {
        try await homeserver.authorized(
            .put, "/_matrix/client/v3/rooms/r/send/m.room.message/t", tokens: FixedAccessToken("t", label: "test"),
            operation: "send")
    }

    @Test func waitsWithinTheShareBudgetAndSends() async throws {
        let server = ScriptedHomeserver([Self.limited(20), Self.limited(30), Self.sent])
        let budget = MatrixWaitBudget(total: .milliseconds(100))
        let homeserver = MatrixHomeserver(baseURL: "http://h", client: server).waitingOutRateLimits(within: budget)
        let answer = try await Self.call(homeserver)
        #expect(answer["event_id"] == "$e")
        #expect(server.requests == 3)
        // 50 ms of the 100 are left: a wait of 60 no longer fits.
        #expect(!budget.take(.milliseconds(60)))
        #expect(budget.take(.milliseconds(50)))
    }

    @Test func aWaitLongerThanTheBudgetLeftIsTheCallersWithTheWait() async {
        let server = ScriptedHomeserver([Self.limited(5000), Self.sent])
        let homeserver = MatrixHomeserver(baseURL: "http://h", client: server)
            .waitingOutRateLimits(within: MatrixWaitBudget(total: .seconds(1)))
        do {
            _ = try await Self.call(homeserver)
            Issue.record("sent without waiting")
        } catch {
            guard case .retryable(let retry) = error else {
                Issue.record("not retryable: \(error)")
                return
            }
            #expect(retry.retryAfter == .seconds(5))
        }
        #expect(server.requests == 1)
        // Without a budget (a target search, a login) nothing waits either.
        let plain = ScriptedHomeserver([Self.limited(1), Self.sent])
        await #expect(throws: APIError.self) {
            try await Self.call(MatrixHomeserver(baseURL: "http://h", client: plain))
        }
        #expect(plain.requests == 1)
    }

    @Test func aHomeserverThatAlwaysSaysWaitNoTimeEndsTheCallAfterABoundedNumberOfWaits() async {
        let server = ScriptedHomeserver([Self.limited(0)])
        let homeserver = MatrixHomeserver(baseURL: "http://h", client: server)
            .waitingOutRateLimits(within: MatrixWaitBudget(total: .seconds(30)))
        await #expect(throws: APIError.self) { try await Self.call(homeserver) }
        #expect(server.requests == MatrixHomeserver.maximumWaitsPerCall + 1)
    }
}
