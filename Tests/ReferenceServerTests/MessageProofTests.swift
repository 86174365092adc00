import Foundation
import ShareKitDPoP
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// The DPoP `jti` of a createMessage proof is recorded in the request's own
/// transaction (one commit per request instead of two). These tests hold
/// the server to what that must not change: a proof is used once, whatever
/// became of its first use, and of several uses at once exactly one counts.
@Suite("reference server: createMessage proofs are used once")
struct MessageProofTests {
    private let thread = "/api/v1/threads/t1/messages"

    /// Sends `body` with a proof made by the caller (not a fresh one).
    private func send(
        _ client: TestClient, _ path: String, proof: String, body: Data
    ) async throws -> TestClient.Response {
        try await client.send(
            "POST", path, body: body, headers: ["DPoP": proof, "Content-Type": "application/json"], proof: false)
    }

    private func body(_ id: String, _ text: String) throws -> Data {
        try JSONSerialization.data(withJSONObject: ["client_msg_id": id, "text": text])
    }

    private func proof(_ client: TestClient, _ server: ServerProcess, _ path: String) throws -> String {
        try client.signer.makeProof(
            method: "POST", url: server.origin + path, accessToken: client.accessToken, nonce: nil)
    }

    private func messageCount(_ client: TestClient, _ path: String) async throws -> Int {
        let listed = try await client.send("GET", path)
        return (listed.object["messages"] as? [Any])?.count ?? -1
    }

    @Test(
        "a replayed createMessage proof is refused with another body, and nothing more is stored",
        arguments: ServerEngine.allCases)
    func replayAfterSuccess(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine, seed: UploadFlow.seed())
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        let proof = try proof(alex, server, thread)
        #expect(try await send(alex, thread, proof: proof, body: body("first", "one")).status == 201)
        let replay = try await send(alex, thread, proof: proof, body: body("second", "two"))
        #expect(replay.status == 401)
        #expect(replay.code == "invalid_dpop_proof")
        #expect(replay.headers["www-authenticate"]?.contains("invalid_dpop_proof") == true)
        #expect(try await messageCount(alex, thread) == 1)
    }

    @Test(
        "a proof whose first use was refused (404, 400, 403) is refused as a replay the second time",
        arguments: ServerEngine.allCases)
    func replayAfterRefusal(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine, seed: UploadFlow.seed())
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        let robin = try await UploadFlow.client(server, "robin")

        let missing = "/api/v1/threads/no-such-thread/messages"
        let toMissing = try proof(alex, server, missing)
        #expect(try await send(alex, missing, proof: toMissing, body: body("m1", "hi")).status == 404)
        #expect(try await send(alex, missing, proof: toMissing, body: body("m1", "hi")).code == "invalid_dpop_proof")

        let badBody = try proof(alex, server, thread)
        #expect(try await send(alex, thread, proof: badBody, body: Data("{\"text\": 5}".utf8)).status == 400)
        let afterBadBody = try await send(alex, thread, proof: badBody, body: body("m2", "valid now"))
        #expect(afterBadBody.status == 401)
        #expect(afterBadBody.code == "invalid_dpop_proof")

        // Robin reads c1 but may not write: 403, inside the transaction that holds the jti record.
        let channel = "/api/v1/channels/c1/messages"
        let forbidden = try proof(robin, server, channel)
        #expect(try await send(robin, channel, proof: forbidden, body: body("m3", "no")).status == 403)
        #expect(try await send(robin, channel, proof: forbidden, body: body("m3", "no")).code == "invalid_dpop_proof")

        #expect(try await messageCount(alex, thread) == 0)
    }

    @Test(
        "eight uses of one proof at once store one message; the other seven are refused as replays",
        arguments: ServerEngine.allCases)
    func concurrentUses(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine, seed: UploadFlow.seed())
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        let proof = try proof(alex, server, thread)
        let answers = try await withThrowingTaskGroup(of: TestClient.Response.self) { group in
            for n in 0..<8 {
                group.addTask { try await send(alex, thread, proof: proof, body: body("race-\(n)", "text \(n)")) }
            }
            return try await group.reduce(into: [TestClient.Response]()) { $0.append($1) }
        }
        let seen = answers.map { "\($0.status) \($0.code ?? "")" }.sorted()
        #expect(answers.filter { $0.status == 201 }.count == 1, "\(seen)")
        #expect(answers.filter { $0.status == 401 && $0.code == "invalid_dpop_proof" }.count == 7, "\(seen)")
        #expect(try await messageCount(alex, thread) == 1)
    }
}
