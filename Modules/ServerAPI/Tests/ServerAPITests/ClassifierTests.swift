import ShareKitHTTPInterface
import ShareKitHTTPTypes
import ShareKitServerAPIInterface
import Testing

@Suite("API classification: one meaning for every answer")
struct ClassifierTests {
    static func classify(_ status: Int, _ body: String = "", retryAfter: String? = nil) -> APIError? {
        var headers = HTTPFields()
        if let retryAfter { headers.set("Retry-After", retryAfter) }
        return APIClassifier.classify(
            status: status, headers: headers, body: Array(body.utf8), operation: "createMessage", now: 0)
    }

    @Test("2xx is success")
    func success() {
        #expect(Self.classify(200) == nil)
        #expect(Self.classify(204) == nil)
    }

    @Test("503 and 429 are retryable with their Retry-After; 408 and 500 without")
    func retryable() {
        guard case .retryable(let busy)? = Self.classify(503, #"{"code":"storage_unavailable"}"#, retryAfter: "7")
        else {
            Issue.record("503 not retryable")
            return
        }
        #expect(busy.kind == .status(503, code: "storage_unavailable"))
        #expect(busy.retryAfter == .seconds(7) && busy.retryAfterSeconds == 7)
        guard case .retryable(let limited)? = Self.classify(429, retryAfter: "2") else {
            Issue.record("429 not retryable")
            return
        }
        #expect(limited.kind == .status(429, code: "http_429") && limited.retryAfter == .seconds(2))
        #expect(Self.classify(408)?.isRetryable == true)
        #expect(Self.classify(500)?.isRetryable == true)
    }

    @Test("other 4xx are refusals with the problem's code and detail")
    func refused() {
        let error = Self.classify(403, #"{"code":"write_forbidden","detail":"read only","title":"Forbidden"}"#)
        guard case .refused(let refusal)? = error else {
            Issue.record("403 not refused: \(String(describing: error))")
            return
        }
        #expect(refusal.status == 403 && refusal.code == "write_forbidden" && refusal.message == "read only")
        guard case .refused(let bare)? = Self.classify(422, "not json") else {
            Issue.record("422 not refused")
            return
        }
        #expect(bare.code == "http_422" && bare.message == "The server answered 422.")
    }

    @Test("401 ends the session")
    func unauthorized() {
        guard case .sessionEnded(let why)? = Self.classify(401, #"{"code":"session_revoked"}"#) else {
            Issue.record("401 did not end the session")
            return
        }
        #expect(why.contains("session_revoked"))
    }

    @Test("transport failures: passing ones retryable, cancellation is cancellation, the rest cannot be helped")
    func transport() {
        #expect(APIClassifier.classify(.cannotConnect("refused"), operation: "x").isRetryable)
        #expect(APIClassifier.classify(.timedOut(.lowSpeed), operation: "x").isRetryable)
        #expect(APIClassifier.classify(.connectionLost("reset"), operation: "x").isRetryable)
        #expect(APIClassifier.classify(.cancelled, operation: "x") == .cancelled)
        #expect(APIClassifier.classify(.tlsFailure("untrusted"), operation: "x") == .failed(.tlsFailure("untrusted")))
        #expect(
            APIClassifier.classify(.responseTooLarge(limit: 8), operation: "x") == .failed(.responseTooLarge(limit: 8)))
    }
}
