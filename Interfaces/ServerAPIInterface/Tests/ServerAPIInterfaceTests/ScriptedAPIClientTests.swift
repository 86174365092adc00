import ShareKitHTTPInterface
import ShareKitServerAPIInterface
import ShareKitServerAPIInterfaceTesting
import Testing

/// The fake answers as its documentation says: rules by operation first,
/// then the script in order, then the outcome after it; every call recorded.
@Suite("ScriptedAPIClient: scripted answers and recorded calls")
struct ScriptedAPIClientTests {
    @Test("rules by operation come before the script; the script answers in order; then whenExhausted")
    func order() async throws {
        let api = ScriptedAPIClient([.json(200, #"{"n":1}"#), .json(201, #"{"n":2}"#)])
        api.answer(operation: "listSpaces", with: [.unavailable(503, retryAfter: .seconds(7))])

        let spaces = await outcome(api, APIRequest("listSpaces", path: "/api/v1/spaces"))
        guard case .failure(.retryable(let retry)) = spaces else {
            Issue.record("listSpaces: \(spaces)")
            return
        }
        #expect(retry.retryAfter == .seconds(7) && retry.status == 503)

        let first = try await api.send(APIRequest("listSpaces", path: "/api/v1/spaces"))
        #expect(first.status == 200 && first.header("Content-Type") == "application/json")
        struct Count: Decodable, Sendable { var n: Int }
        let second = try await api.send(APIRequest("getMe", path: "/api/v1/me"), decoding: Count.self)
        #expect(second.value.n == 2 && second.response.status == 201)

        let after = await outcome(api, APIRequest("getMe", path: "/api/v1/me"))
        guard case .failure(let error) = after else {
            Issue.record("after the script: \(after)")
            return
        }
        #expect(error.isRetryable)
        #expect(api.operations == ["listSpaces", "listSpaces", "getMe", "getMe"])
        #expect(api.requests.map(\.path) == ["/api/v1/spaces", "/api/v1/spaces", "/api/v1/me", "/api/v1/me"])
    }

    @Test("a scripted refusal is thrown as the real client's refusal, with its status and code")
    func refusal() async {
        let api = ScriptedAPIClient(
            whenExhausted: .refused("createMessage", status: 404, code: "thread_not_found", message: "gone"))
        let result = await outcome(api, APIRequest("createMessage", method: .post, path: "/m"))
        guard case .failure(.refused(let refusal)) = result else {
            Issue.record("\(result)")
            return
        }
        #expect(refusal.status == 404 && refusal.code == "thread_not_found" && refusal.message == "gone")
        #expect(api.calls.count == 1 && api.calls[0].cancellable == false)
    }

    private func outcome(_ api: ScriptedAPIClient, _ request: APIRequest) async -> Result<APIResponse, APIError> {
        do { return .success(try await api.send(request)) } catch { return .failure(error) }
    }
}
