import ShareKitCore
import ShareKitHTTPInterface
import ShareKitServerAPIInterface
import Testing

@testable import ShareKitMatrixBackend

/// How the backend reads a homeserver's refusals and its discovery documents
/// (hostile input): the classification the delivery engine acts on.
@Suite struct MatrixHomeserverTests {
    @Test func rateLimitWaitsTheAnnouncedTimeWithinAnHour() {
        let error = MatrixHomeserver.failure(
            status: 429, json: ["errcode": "M_LIMIT_EXCEEDED", "retry_after_ms": 2500], operation: "send")
        guard case .retryable(let retry) = error else {
            Issue.record("not retryable: \(error)")
            return
        }
        #expect(retry.retryAfter == .milliseconds(2500))
        let hostile = MatrixHomeserver.failure(
            status: 429, json: ["errcode": "M_LIMIT_EXCEEDED", "retry_after_ms": 99_999_999_999], operation: "send")
        guard case .retryable(let capped) = hostile else {
            Issue.record("not retryable: \(hostile)")
            return
        }
        #expect(capped.retryAfter == .seconds(3600))
    }

    @Test func forbiddenIsWriteForbiddenAndTooLargeIsFileTooLarge() {
        let forbidden = MatrixHomeserver.failure(
            status: 403, json: ["errcode": "M_FORBIDDEN", "error": "power\u{1B}[31m"], operation: "send")
        guard case .refused(let refusal) = forbidden else {
            Issue.record("not refused: \(forbidden)")
            return
        }
        #expect(refusal.code == "write_forbidden")
        #expect(!refusal.message.contains("\u{1B}"))
        #expect(
            MatrixHomeserver.failure(status: 413, json: ["errcode": "M_TOO_LARGE"], operation: "upload").refusedStatus
                == 413)
        #expect(MatrixHomeserver.failure(status: 502, json: nil, operation: "send").isRetryable)
    }

    @Test func wellKnownBaseURLIsTakenOnlyWhenItKeepsTheTransportSafe() {
        #expect(
            MatrixDiscovery.acceptedBaseURL("https://m.example.org/", origin: "https://example.org")
                == "https://m.example.org")
        #expect(MatrixDiscovery.acceptedBaseURL("http://m.example.org", origin: "https://example.org") == nil)
        #expect(
            MatrixDiscovery.acceptedBaseURL("http://127.0.0.1:9", origin: "http://127.0.0.1:8") == "http://127.0.0.1:9")
        #expect(MatrixDiscovery.acceptedBaseURL("javascript:alert(1)", origin: "http://x") == nil)
        #expect(MatrixDiscovery.acceptedBaseURL("https://a b", origin: "https://x") == nil)
    }

    @Test func pathSegmentsAreEncoded() {
        #expect(MatrixHomeserver.segment("!room:host/x") == "%21room%3Ahost%2Fx")
    }
}
