import ShareKitDPoP
import ShareKitDPoPInterface
import ShareKitDPoPInterfaceTesting
import ShareKitKeychainInterfaceTesting
import ShareKitSharedStateInterfaceTesting
import ShareKitSystemTesting
import Testing

@Suite("RFC 9449 example values")
struct RFC9449VectorTests {
    @Test("the thumbprint of the examples' key is 0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I")
    func thumbprint() throws {
        let jwk = try JWK(x: RFC9449Examples.x, y: RFC9449Examples.y)
        #expect(try JWKThumbprint.sha256(of: jwk, crypto: TestKit.crypto) == RFC9449Examples.thumbprint)
    }

    @Test("ath of the example access token")
    func accessTokenHash() throws {
        #expect(
            try AccessTokenHash.of(RFC9449Examples.accessToken, crypto: TestKit.crypto)
                == RFC9449Examples.accessTokenHash)
    }

    @Test("Figure 2 (token request) verifies: signature and claims")
    func figure2() throws {
        let verifier = ES256ProofVerifier(
            crypto: TestKit.crypto, replayStore: InMemoryReplayStore(),
            clock: { RFC9449Examples.tokenRequestIssuedAt })
        let result = try verifier.verify(
            DPoPVerificationInput(
                proof: RFC9449Examples.tokenRequestProof, method: "POST", url: "https://server.example.com/token"))
        #expect(result.thumbprint == RFC9449Examples.thumbprint)
        #expect(result.jti == "-BwC3ESc6acc2lTc")
        #expect(result.method == "POST")
        #expect(result.url == "https://server.example.com/token")
        #expect(result.issuedAt == RFC9449Examples.tokenRequestIssuedAt)
        #expect(result.jwk == (try JWK(x: RFC9449Examples.x, y: RFC9449Examples.y)))
        #expect(result.nonce == nil && result.accessTokenHash == nil)
    }

    @Test("Figure 13 (resource request with ath) verifies, bound to the example thumbprint")
    func figure13() throws {
        let verifier = ES256ProofVerifier(
            crypto: TestKit.crypto, replayStore: InMemoryReplayStore(),
            clock: { RFC9449Examples.resourceRequestIssuedAt })
        let result = try verifier.verify(
            DPoPVerificationInput(
                proof: RFC9449Examples.resourceRequestProof, method: "GET",
                url: "https://resource.example.org/protectedresource", accessToken: RFC9449Examples.accessToken,
                boundThumbprint: RFC9449Examples.thumbprint))
        #expect(result.jti == "e1j3V_bKic8-LAEB")
        #expect(result.accessTokenHash == RFC9449Examples.accessTokenHash)
        #expect(result.issuedAt == RFC9449Examples.resourceRequestIssuedAt)
    }

    @Test("the RFC's proofs are refused out of their context")
    func outOfContext() {
        let verifier = ES256ProofVerifier(
            crypto: TestKit.crypto, replayStore: InMemoryReplayStore(),
            clock: { RFC9449Examples.resourceRequestIssuedAt })
        #expect(throws: DPoPError.accessTokenHashMismatch) {
            try verifier.verify(
                DPoPVerificationInput(
                    proof: RFC9449Examples.resourceRequestProof, method: "GET",
                    url: "https://resource.example.org/protectedresource", accessToken: "another-token"))
        }
        let today = ES256ProofVerifier(crypto: TestKit.crypto, replayStore: InMemoryReplayStore())
        #expect(throws: DPoPError.issuedAtOutsideWindow) {
            try today.verify(
                DPoPVerificationInput(
                    proof: RFC9449Examples.tokenRequestProof, method: "POST", url: "https://server.example.com/token"))
        }
    }
}
