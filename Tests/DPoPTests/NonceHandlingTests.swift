import ShareKitDPoP
import ShareKitDPoPInterface
import ShareKitDPoPInterfaceTesting
import ShareKitKeychainInterfaceTesting
import ShareKitSharedStateInterface
import ShareKitSharedStateInterfaceTesting
import ShareKitSystemTesting
import Testing

@Suite("Client nonce handling (RFC 9449 section 8)")
struct NonceHandlingTests {
    let token = "https://server.example.com/api/v1/auth/refresh"
    let resource = "https://server.example.com/api/v1/spaces"
    let useNonceBody = Array(#"{"error":"use_dpop_nonce","error_description":"nonce required"}"#.utf8)

    @Test("400 use_dpop_nonce at a token endpoint: store the nonce, repeat once with it")
    func tokenEndpoint() throws {
        let cache = InMemoryNonceCache()
        let handler = DPoPNonceHandler(cache: cache)
        let first = try handler.evaluate(
            status: 400, headers: ["DPoP-Nonce": "eyJ7S_zG.eyJH0-Z.HX4w-7v"], body: useNonceBody, url: token,
            sentNonce: nil, isRetry: false)
        #expect(first == .retry(nonce: "eyJ7S_zG.eyJH0-Z.HX4w-7v"))
        #expect(cache.nonce(forOrigin: "https://server.example.com") == "eyJ7S_zG.eyJH0-Z.HX4w-7v")
        #expect(try handler.nonce(for: resource) == "eyJ7S_zG.eyJH0-Z.HX4w-7v")
        // The repetition fails again: no second repetition.
        let second = try handler.evaluate(
            status: 400, headers: ["DPoP-Nonce": "another"], body: useNonceBody, url: token,
            sentNonce: "eyJ7S_zG.eyJH0-Z.HX4w-7v", isRetry: true)
        #expect(second == .challengeUnresolved)
        #expect(cache.nonce(forOrigin: "https://server.example.com") == "another")
    }

    @Test("401 with WWW-Authenticate DPoP error=use_dpop_nonce at a resource")
    func resourceEndpoint() throws {
        let handler = DPoPNonceHandler(cache: InMemoryNonceCache())
        for challenge in [
            #"DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof""#,
            #"Bearer realm="x", DPoP algs="ES256", error="use_dpop_nonce""#,
            #"dpop error=use_dpop_nonce"#,
        ] {
            let decision = try handler.evaluate(
                status: 401, headers: ["www-authenticate": challenge, "dpop-nonce": "n-2"], body: [], url: resource,
                sentNonce: "n-1", isRetry: false)
            #expect(decision == .retry(nonce: "n-2"), "\(challenge)")
        }
    }

    @Test(
        "responses that are not nonce challenges",
        arguments: [
            (401, #"DPoP error="invalid_token""#, ""),
            (401, #"Bearer error="use_dpop_nonce""#, ""),
            (400, "", #"{"error":"invalid_grant"}"#),
            (400, "", "not json"),
            (403, #"DPoP error="use_dpop_nonce""#, #"{"error":"use_dpop_nonce"}"#),
            (200, "", #"{"error":"use_dpop_nonce"}"#),
        ])
    func notChallenges(status: Int, authenticate: String, body: String) throws {
        let handler = DPoPNonceHandler(cache: InMemoryNonceCache())
        var headers = ["DPoP-Nonce": "n-new"]
        if !authenticate.isEmpty { headers["WWW-Authenticate"] = authenticate }
        let decision = try handler.evaluate(
            status: status, headers: headers, body: Array(body.utf8), url: resource, sentNonce: nil, isRetry: false)
        #expect(decision == .proceed)
    }

    @Test("any response's DPoP-Nonce is stored for its origin")
    func storesFromAnyResponse() throws {
        let cache = InMemoryNonceCache()
        let handler = DPoPNonceHandler(cache: cache)
        #expect(
            try handler.evaluate(
                status: 200, headers: ["dPoP-nOnce": "  n-7  "], body: [], url: "HTTPS://Server.Example.com:443/x?y",
                sentNonce: nil, isRetry: false) == .proceed)
        #expect(cache.nonce(forOrigin: "https://server.example.com") == "n-7")
        #expect(try handler.nonce(for: "http://server.example.com/") == nil)
        #expect(try handler.nonce(for: "https://server.example.com:8443/") == nil)
    }

    @Test("repeat only when the nonce changed")
    func onlyWhenChanged() throws {
        let cache = InMemoryNonceCache()
        let handler = DPoPNonceHandler(cache: cache)
        // The server sends the nonce the request already carried: repeating would fail the same way.
        #expect(
            try handler.evaluate(
                status: 400, headers: ["DPoP-Nonce": "n-1"], body: useNonceBody, url: token, sentNonce: "n-1",
                isRetry: false) == .challengeUnresolved)
        // No DPoP-Nonce header at all, and nothing cached.
        #expect(
            try DPoPNonceHandler(cache: InMemoryNonceCache()).evaluate(
                status: 400, headers: [:], body: useNonceBody, url: token, sentNonce: nil, isRetry: false)
                == .challengeUnresolved)
        // No header, but another process cached a newer nonce meanwhile.
        cache.store("n-2", forOrigin: "https://server.example.com")
        #expect(
            try handler.evaluate(
                status: 400, headers: [:], body: useNonceBody, url: token, sentNonce: "n-1", isRetry: false)
                == .retry(nonce: "n-2"))
    }

    @Test(
        "nonces outside the RFC's syntax are neither stored nor used",
        arguments: ["has space", "quo\"te", "", "back\\slash"])
    func invalidNonces(nonce: String) throws {
        let cache = InMemoryNonceCache()
        let handler = DPoPNonceHandler(cache: cache)
        let decision = try handler.evaluate(
            status: 400, headers: ["DPoP-Nonce": nonce], body: useNonceBody, url: token, sentNonce: nil,
            isRetry: false)
        #expect(decision == .challengeUnresolved)
        #expect(cache.nonce(forOrigin: "https://server.example.com") == nil)
    }

    @Test("the shared-state cache uses dpop.nonce.<digest of the origin>, never the address")
    func sharedState() throws {
        let state = InMemorySharedState()
        let handler = DPoPNonceHandler(cache: SharedStateNonceCache(state: state))
        _ = try handler.evaluate(
            status: 200, headers: ["DPoP-Nonce": "n-9"], body: [], url: "https://Server.example.com/x",
            sentNonce: nil, isRetry: false)
        let key = SharedStateKey.dpopNonce(origin: "https://server.example.com")
        #expect(try state.snapshot() == [key.name: "n-9"])
        #expect(!key.name.contains("server.example.com"))
        #expect(try SharedStateNonceCache(state: state).nonce(forOrigin: "https://server.example.com") == "n-9")
        #expect(try handler.nonce(for: "https://server.example.com/other") == "n-9")
    }

    @Test("a full exchange: client and server agree through the handler")
    func endToEnd() throws {
        let (_, signer) = try TestKit.signer()
        let handler = DPoPNonceHandler(cache: InMemoryNonceCache())
        let verifier = TestKit.verifier()
        let requirement = DPoPNonceRequirement(acceptedNonces: ["server-nonce"], nonceToSend: "server-nonce")
        var sent = try handler.nonce(for: token)
        var proof = try signer.makeProof(method: "POST", url: token, accessToken: nil, nonce: sent)
        var decision = DPoPNonceDecision.proceed
        do {
            _ = try verifier.verify(DPoPVerificationInput(proof: proof, method: "POST", url: token, nonce: requirement))
        } catch {
            let body = Array(("{\"error\":\"\(error.oauthErrorCode ?? "")\"}").utf8)
            decision = try handler.evaluate(
                status: 400, headers: ["DPoP-Nonce": error.nonceToSend ?? ""], body: body, url: token,
                sentNonce: sent, isRetry: false)
        }
        #expect(decision == .retry(nonce: "server-nonce"))
        sent = try handler.nonce(for: token)
        proof = try signer.makeProof(method: "POST", url: token, accessToken: nil, nonce: sent)
        let result = try verifier.verify(
            DPoPVerificationInput(proof: proof, method: "POST", url: token, nonce: requirement))
        #expect(result.nonce == "server-nonce")
    }
}
