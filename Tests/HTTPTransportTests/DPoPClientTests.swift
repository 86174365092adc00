import ShareKitCryptoInterface
import ShareKitDPoP
import ShareKitDPoPInterface
import ShareKitDPoPInterfaceTesting
import ShareKitHTTPInterface
import ShareKitHTTPTransport
import ShareKitHTTPTypes
import ShareKitOpenSSLCrypto
import ShareKitSystemTesting
import Synchronization
import Testing

/// DPoPHTTPClient over CurlHTTPClient against a server that plays the
/// nonce challenge of RFC 9449 section 8 (`/dpop/token` answers like a token
/// endpoint, `/dpop/resource` like a resource server). Tokens and proofs are
/// compared, never printed.
@Suite("DPoPHTTPClient: proofs, tokens and the nonce repetition")
struct DPoPClientTests {
    let crypto = OpenSSLCryptoProvider()
    let token = "test-access-token-not-a-real-one"

    struct Fixture {
        let server: LoopbackServer
        let cache: InMemoryNonceCache
        let client: DPoPHTTPClient
        let verifier: ES256ProofVerifier
        var challenger: DPoPChallenger { server.state.dpop }
        var origin: String { "http://127.0.0.1:\(server.port)" }
    }

    func fixture() throws -> Fixture {
        let server = try LoopbackServer()
        let cache = InMemoryNonceCache()
        let signer = try ES256ProofSigner(key: try crypto.generateP256SigningKey(), crypto: crypto)
        let client = DPoPHTTPClient(
            client: try CurlHTTPClient(), signer: signer, nonces: DPoPNonceHandler(cache: cache))
        return Fixture(
            server: server, cache: cache, client: client,
            verifier: ES256ProofVerifier(crypto: crypto, replayStore: InMemoryReplayStore()))
    }

    @Test("a resource's 401 use_dpop_nonce is answered once, with a new proof, and the same file bytes again")
    func resourceChallengeWithFileRegion() async throws {
        let f = try fixture()
        defer { f.server.stop() }
        let file = try TestFile(size: 4 << 20, seed: 9)
        defer { file.remove() }
        let (offset, length) = (777, 3 << 20)
        let expected = try file.sha256(offset: offset, length: length)
        let url = f.server.url("/dpop/resource")
        let log = ProgressLog()

        let response = try await f.client.send(
            HTTPClientRequest(
                method: .put, url: url,
                body: .file(HTTPFileRegion(path: file.path, offset: UInt64(offset), length: UInt64(length)))),
            accessToken: token, options: HTTPRequestOptions(progress: log.callback))
        #expect(response.status == 200)

        let attempts = f.challenger.attempts.withLock { $0 }
        #expect(attempts.map(\.status) == [401, 200])
        #expect(attempts.map(\.bodySHA256) == [expected, expected], "the repetition sends the same bytes")
        #expect(attempts.map(\.bodyBytes) == [length, length])
        #expect(attempts.map(\.nonceClaim) == [nil, "nonce-1"])
        let authorizationMatches = attempts.allSatisfy { $0.authorization == "DPoP " + token }
        #expect(authorizationMatches, "Authorization: DPoP <token> on both attempts")
        #expect(attempts[0].proof != attempts[1].proof, "a fresh proof for the repetition")
        // Both proofs verify for this method, URL and token (htm, htu, ath), the second with the nonce.
        #expect(throws: Never.self) {
            _ = try f.verifier.verify(
                DPoPVerificationInput(proof: attempts[0].proof ?? "", method: "PUT", url: url, accessToken: token))
            _ = try f.verifier.verify(
                DPoPVerificationInput(
                    proof: attempts[1].proof ?? "", method: "PUT", url: url, accessToken: token,
                    nonce: DPoPNonceRequirement(acceptedNonces: ["nonce-1"], nonceToSend: "nonce-1")))
        }
        #expect(f.cache.nonce(forOrigin: f.origin) == "nonce-1")
        #expect(log.problem(total: UInt64(length)) == nil, "\(log.problem(total: UInt64(length)) ?? "")")
    }

    @Test("a token endpoint's 400 use_dpop_nonce is answered once; no token means no Authorization and no ath")
    func tokenEndpointChallenge() async throws {
        let f = try fixture()
        defer { f.server.stop() }
        let url = f.server.url("/dpop/token")
        let body = Array(#"{"username":"alex","password":"pw"}"#.utf8)
        let response = try await f.client.send(
            HTTPClientRequest(
                method: .post, url: url, headers: ["Content-Type": "application/json"], body: .bytes(body)))
        #expect(response.status == 201)
        let attempts = f.challenger.attempts.withLock { $0 }
        #expect(attempts.map(\.status) == [400, 201])
        #expect(attempts.allSatisfy { $0.authorization == nil })
        #expect(attempts.allSatisfy { $0.proof.flatMap(DPoPChallenger.claims)?["ath"] == nil })
        #expect(attempts.allSatisfy { $0.proof.flatMap(DPoPChallenger.claims)?["htm"] as? String == "POST" })
        #expect(attempts[1].bodyBytes == body.count)
        #expect(throws: Never.self) {
            _ = try f.verifier.verify(
                DPoPVerificationInput(
                    proof: attempts[1].proof ?? "", method: "POST", url: url,
                    nonce: DPoPNonceRequirement(acceptedNonces: ["nonce-1"], nonceToSend: "nonce-1")))
        }
    }

    @Test("no repetition when the challenge brings the nonce the proof already had")
    func noRetryWhenNonceUnchanged() async throws {
        let f = try fixture()
        defer { f.server.stop() }
        f.cache.store("fixed", forOrigin: f.origin)
        f.challenger.mode.withLock { $0 = .challengeWithSentNonce }
        let response = try await f.client.send(
            HTTPClientRequest(url: f.server.url("/dpop/resource")), accessToken: token)
        #expect(response.status == 401, "the challenge is the caller's answer")
        let attempts = f.challenger.attempts.withLock { $0 }
        #expect(attempts.count == 1)
        #expect(attempts.first?.nonceClaim == "fixed")
    }

    @Test("at most one repetition, even when every answer is a challenge with a new nonce")
    func atMostOneRetry() async throws {
        let f = try fixture()
        defer { f.server.stop() }
        f.challenger.mode.withLock { $0 = .alwaysChallenge }
        let response = try await f.client.send(
            HTTPClientRequest(method: .post, url: f.server.url("/dpop/token"), body: .bytes([1])))
        #expect(response.status == 400)
        let attempts = f.challenger.attempts.withLock { $0 }
        #expect(attempts.map(\.nonceClaim) == [nil, "nonce-1"])
        #expect(f.cache.nonce(forOrigin: f.origin) == "nonce-2", "the last nonce is remembered for next time")
    }

    @Test("a DPoP-Nonce on any response is remembered and used by the next proof")
    func nonceFromSuccessIsUsed() async throws {
        let f = try fixture()
        defer { f.server.stop() }
        f.challenger.mode.withLock { $0 = .rotateOnSuccess }
        for _ in 0..<3 {
            let response = try await f.client.send(
                HTTPClientRequest(url: f.server.url("/dpop/resource")), accessToken: token)
            #expect(response.status == 200)
        }
        let attempts = f.challenger.attempts.withLock { $0 }
        #expect(attempts.map(\.nonceClaim) == [nil, "nonce-1", "nonce-2"])
        #expect(f.cache.nonce(forOrigin: f.origin) == "nonce-3")
    }

    @Test("signing failures are signingFailed or invalidURL, and never carry a proof")
    func signingFailures() async throws {
        let f = try fixture()
        defer { f.server.stop() }
        let error = await failure { () async throws(HTTPClientError) in
            try await f.client.send(HTTPClientRequest(url: "not a url"), accessToken: token)
        }
        guard case .invalidURL = error else {
            Issue.record("expected invalidURL, got \(String(describing: error))")
            return
        }
        #expect(f.challenger.attempts.withLock { $0.isEmpty })
    }
}
