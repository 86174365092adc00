import Foundation
import ShareKitCore
import ShareKitCryptoInterface
import ShareKitDPoP
import ShareKitDPoPInterface
import ShareKitDPoPInterfaceTesting
import ShareKitKeychainInterfaceTesting
import ShareKitSharedStateInterfaceTesting
import ShareKitSystemTesting
import Testing

@Suite("Verifying proofs: every rejection has its own case")
struct ProofVerificationTests {
    let url = "https://api.example.com/resource"

    @Test("a proof made by the signer verifies, with token, nonce and binding")
    func roundTrip() throws {
        let (_, signer) = try TestKit.signer()
        let proof = try signer.makeProof(method: "POST", url: url + "?q=1", accessToken: "token-1", nonce: "n-1")
        let result = try TestKit.verifier().verify(
            DPoPVerificationInput(
                proof: proof, method: "POST", url: "https://API.example.com:443/resource", accessToken: "token-1",
                boundThumbprint: signer.thumbprint,
                nonce: DPoPNonceRequirement(acceptedNonces: ["n-0", "n-1"], nonceToSend: "n-2")))
        #expect(result.thumbprint == signer.thumbprint)
        #expect(result.jwk == signer.publicJWK)
        #expect(result.url == url)
        #expect(result.nonce == "n-1")
        #expect(result.issuedAt == TestKit.now)
    }

    @Test("escaped and non-ASCII claim values survive the round trip exactly")
    func escapedValues() throws {
        let (_, signer) = try TestKit.signer()
        let nonce = "n\"é\\\u{1}😀"
        let proof = try signer.makeProof(method: "GET", url: url, accessToken: nil, nonce: nonce)
        let result = try TestKit.verifier().verify(
            DPoPVerificationInput(
                proof: proof, method: "GET", url: url,
                nonce: DPoPNonceRequirement(acceptedNonces: [nonce], nonceToSend: "next")))
        #expect(result.nonce == nonce)
    }

    @Test("many distinct URLs: each proof names its own htu")
    func manyURLs() throws {
        let (_, signer) = try TestKit.signer()
        let verifier = TestKit.verifier()
        for i in 0..<200 {
            let target = "https://api.example.com/items/\(i % 150)?page=\(i)"
            let proof = try signer.makeProof(method: "GET", url: target, accessToken: nil, nonce: nil)
            let result = try verifier.verify(DPoPVerificationInput(proof: proof, method: "GET", url: target))
            #expect(result.url == "https://api.example.com/items/\(i % 150)")
        }
    }

    @Test("bad format", arguments: ["", "abc", "a.b", "a.b.c.d", "!!!.e30.AA", "bm90IGpzb24.e30.AA", "W10.e30.AA"])
    func badFormat(proof: String) {
        #expect {
            try TestKit.verifier().verify(DPoPVerificationInput(proof: proof, method: "GET", url: url))
        } throws: { error in
            if case .malformedProof = error as? DPoPError { return true }
            return false
        }
    }

    @Test("an oversized proof is refused before any parsing")
    func oversized() {
        let proof = String(repeating: "A", count: 9000) + ".e30.AA"
        #expect(throws: DPoPError.malformedProof("the proof must be 1 to 8192 bytes long")) {
            try TestKit.verifier().verify(DPoPVerificationInput(proof: proof, method: "GET", url: url))
        }
    }

    @Test("bad signature: changed payload, changed signature, signature by another key")
    func badSignature() throws {
        let (key, signer) = try TestKit.signer()
        let proof = try signer.makeProof(method: "GET", url: url, accessToken: nil, nonce: nil)
        let parts = proof.split(separator: ".").map(String.init)
        let forgedPayload = Base64URL.encode(Array(TestKit.payload(htm: "DELETE").utf8))
        var signature = try Base64URL.decode(parts[2])
        signature[10] ^= 1
        let other = try TestKit.crypto.generateP256SigningKey()
        let byOther = try TestKit.craft(header: try TestKit.header(key), payload: TestKit.payload(), key: other)
        for candidate in [
            parts[0] + "." + forgedPayload + "." + parts[2],
            parts[0] + "." + parts[1] + "." + Base64URL.encode(signature),
            byOther, parts[0] + "." + parts[1] + "." + Base64URL.encode(Array(signature.prefix(63))),
        ] {
            #expect(throws: DPoPError.invalidSignature) {
                try TestKit.verifier().verify(DPoPVerificationInput(proof: candidate, method: "GET", url: url))
            }
        }
    }

    @Test("wrong typ", arguments: [#""typ":"JWT","#, #""typ":"dpop","#, "", #""typ":1,"#])
    func wrongType(typ: String) throws {
        let key = try TestKit.crypto.generateP256SigningKey()
        let header = "{" + typ + #""alg":"ES256","jwk":"# + (try TestKit.jwkJSON(key)) + "}"
        let proof = try TestKit.craft(header: header, payload: TestKit.payload(), key: key)
        #expect(throws: DPoPError.wrongType) {
            try TestKit.verifier().verify(DPoPVerificationInput(proof: proof, method: "GET", url: url))
        }
    }

    @Test("typ is a media type: case and an application/ prefix do not matter")
    func typeVariants() throws {
        let key = try TestKit.crypto.generateP256SigningKey()
        for typ in ["DPoP+JWT", "application/dpop+jwt"] {
            let header = #"{"typ":""# + typ + #"","alg":"ES256","jwk":"# + (try TestKit.jwkJSON(key)) + "}"
            let proof = try TestKit.craft(header: header, payload: TestKit.payload(), key: key)
            _ = try TestKit.verifier().verify(DPoPVerificationInput(proof: proof, method: "GET", url: url))
        }
    }

    @Test("wrong alg", arguments: ["none", "HS256", "ES384", "RS256", "es256"])
    func wrongAlgorithm(alg: String) throws {
        let key = try TestKit.crypto.generateP256SigningKey()
        let header = #"{"typ":"dpop+jwt","alg":""# + alg + #"","jwk":"# + (try TestKit.jwkJSON(key)) + "}"
        let proof = try TestKit.craft(header: header, payload: TestKit.payload(), key: key)
        #expect(throws: DPoPError.unsupportedAlgorithm) {
            try TestKit.verifier().verify(DPoPVerificationInput(proof: proof, method: "GET", url: url))
        }
    }

    @Test("a private member in the jwk", arguments: ["d", "k", "p"])
    func privateMember(member: String) throws {
        let key = try TestKit.crypto.generateP256SigningKey()
        var jwk = try TestKit.jwkJSON(key)
        jwk.removeLast()
        jwk += #","# + "\"\(member)\"" + #":""# + Base64URL.encode(try key.exportPrivateScalar()) + #""}"#
        let header = #"{"typ":"dpop+jwt","alg":"ES256","jwk":"# + jwk + "}"
        let proof = try TestKit.craft(header: header, payload: TestKit.payload(), key: key)
        #expect(throws: DPoPError.privateKeyInJWK) {
            try TestKit.verifier().verify(DPoPVerificationInput(proof: proof, method: "GET", url: url))
        }
    }

    @Test("a jwk that is not a P-256 public key")
    func invalidKey() throws {
        let key = try TestKit.crypto.generateP256SigningKey()
        let x = Base64URL.encode(key.publicKey.x)
        var yBytes = key.publicKey.y
        yBytes[31] ^= 1
        let jwks = [
            #"{"kty":"RSA","n":"AQAB","e":"AQAB"}"#,
            #"{"crv":"P-384","kty":"EC","x":""# + x + #"","y":""# + x + #""}"#,
            #"{"crv":"P-256","kty":"EC","x":""# + x + #""}"#,
            #"{"crv":"P-256","kty":"EC","x":"AAAA","y":""# + x + #""}"#,
            #"{"crv":"P-256","kty":"EC","x":""# + x + #"","y":""# + Base64URL.encode(yBytes) + #""}"#,
        ]
        for jwk in jwks {
            let proof = try TestKit.craft(
                header: #"{"typ":"dpop+jwt","alg":"ES256","jwk":"# + jwk + "}", payload: TestKit.payload(), key: key)
            #expect {
                try TestKit.verifier().verify(DPoPVerificationInput(proof: proof, method: "GET", url: url))
            } throws: { error in
                if case .invalidKey = error as? DPoPError { return true }
                return false
            }
        }
        let noJWK = try TestKit.craft(
            header: #"{"typ":"dpop+jwt","alg":"ES256"}"#, payload: TestKit.payload(), key: key)
        #expect(throws: DPoPError.invalidKey("the header has no jwk object")) {
            try TestKit.verifier().verify(DPoPVerificationInput(proof: noJWK, method: "GET", url: url))
        }
    }

    @Test("wrong htm: methods are compared exactly")
    func wrongMethod() throws {
        let (_, signer) = try TestKit.signer()
        let proof = try signer.makeProof(method: "GET", url: url, accessToken: nil, nonce: nil)
        for method in ["POST", "get"] {
            #expect(throws: DPoPError.methodMismatch) {
                try TestKit.verifier().verify(DPoPVerificationInput(proof: proof, method: method, url: url))
            }
        }
    }

    @Test("wrong htu: another path, host, port or scheme")
    func wrongURL() throws {
        let (key, signer) = try TestKit.signer()
        let proof = try signer.makeProof(method: "GET", url: url, accessToken: nil, nonce: nil)
        for other in [
            "https://api.example.com/other", "https://evil.example.com/resource",
            "https://api.example.com:8443/resource",
            "http://api.example.com/resource", "https://api.example.com/Resource",
        ] {
            #expect(throws: DPoPError.urlMismatch) {
                try TestKit.verifier().verify(DPoPVerificationInput(proof: proof, method: "GET", url: other))
            }
        }
        let unparsable = try TestKit.craft(
            header: try TestKit.header(key), payload: TestKit.payload(htu: "not a url"), key: key)
        #expect(throws: DPoPError.urlMismatch) {
            try TestKit.verifier().verify(DPoPVerificationInput(proof: unparsable, method: "GET", url: url))
        }
    }

    @Test("iat outside the window, in the past or the future; inside at both edges")
    func issuedAtWindow() throws {
        let key = try TestKit.crypto.generateP256SigningKey()
        for (iat, accepted) in [
            (TestKit.now - 61, false), (TestKit.now + 61, false), (TestKit.now - 60, true), (TestKit.now + 60, true),
            (0, false), (Int64.max, false), (Int64.min, false),
        ] {
            let proof = try TestKit.craft(header: try TestKit.header(key), payload: TestKit.payload(iat: iat), key: key)
            let input = DPoPVerificationInput(proof: proof, method: "GET", url: url)
            if accepted {
                _ = try TestKit.verifier().verify(input)
            } else {
                #expect(throws: DPoPError.issuedAtOutsideWindow) { try TestKit.verifier().verify(input) }
            }
        }
        let hugeIat = #"{"jti":"a","htm":"GET","htu":""# + url + #"","iat":1e300}"#
        let proof = try TestKit.craft(header: try TestKit.header(key), payload: hugeIat, key: key)
        #expect(throws: DPoPError.issuedAtOutsideWindow) {
            try TestKit.verifier().verify(DPoPVerificationInput(proof: proof, method: "GET", url: url))
        }
    }

    @Test("an absurd iat window is clamped instead of overflowing")
    func hugeWindow() throws {
        let (_, signer) = try TestKit.signer()
        let verifier = ES256ProofVerifier(
            crypto: TestKit.crypto, replayStore: InMemoryReplayStore(), iatWindowSeconds: .max, clock: TestKit.clock)
        #expect(verifier.iatWindowSeconds == ES256ProofVerifier.maxIATWindowSeconds)
        let proof = try signer.makeProof(method: "GET", url: url, accessToken: nil, nonce: nil)
        _ = try verifier.verify(DPoPVerificationInput(proof: proof, method: "GET", url: url))
        // Clocks at the ends of the range neither crash nor accept.
        for extreme in [Int64.max, Int64.min] {
            let odd = ES256ProofVerifier(
                crypto: TestKit.crypto, replayStore: InMemoryReplayStore(), iatWindowSeconds: 60, clock: { extreme })
            #expect(throws: DPoPError.issuedAtOutsideWindow) {
                try odd.verify(DPoPVerificationInput(proof: proof, method: "GET", url: url))
            }
        }
    }

    @Test("jti replayed within the window; the same jti from another key is not a replay")
    func replay() throws {
        let (key, signer) = try TestKit.signer()
        let verifier = TestKit.verifier()
        let proof = try signer.makeProof(method: "GET", url: url, accessToken: nil, nonce: nil)
        _ = try verifier.verify(DPoPVerificationInput(proof: proof, method: "GET", url: url))
        #expect(throws: DPoPError.replayed) {
            try verifier.verify(DPoPVerificationInput(proof: proof, method: "GET", url: url))
        }
        let sameJTI = TestKit.payload(jti: "fixed-jti")
        _ = try verifier.verify(
            DPoPVerificationInput(
                proof: try TestKit.craft(header: try TestKit.header(key), payload: sameJTI, key: key), method: "GET",
                url: url))
        let other = try TestKit.crypto.generateP256SigningKey()
        _ = try verifier.verify(
            DPoPVerificationInput(
                proof: try TestKit.craft(header: try TestKit.header(other), payload: sameJTI, key: other),
                method: "GET", url: url))
    }

    @Test("a rejected proof does not use up its jti")
    func rejectedProofKeepsJTI() throws {
        let (_, signer) = try TestKit.signer()
        let verifier = TestKit.verifier()
        let proof = try signer.makeProof(method: "GET", url: url, accessToken: nil, nonce: nil)
        #expect(throws: DPoPError.methodMismatch) {
            try verifier.verify(DPoPVerificationInput(proof: proof, method: "PUT", url: url))
        }
        _ = try verifier.verify(DPoPVerificationInput(proof: proof, method: "GET", url: url))
    }

    @Test("ath missing or wrong when a token is sent; ignored when none is")
    func accessTokenHash() throws {
        let (_, signer) = try TestKit.signer()
        let withoutAth = try signer.makeProof(method: "GET", url: url, accessToken: nil, nonce: nil)
        #expect(throws: DPoPError.missingAccessTokenHash) {
            try TestKit.verifier().verify(
                DPoPVerificationInput(proof: withoutAth, method: "GET", url: url, accessToken: "token-1"))
        }
        let forOther = try signer.makeProof(method: "GET", url: url, accessToken: "token-2", nonce: nil)
        #expect(throws: DPoPError.accessTokenHashMismatch) {
            try TestKit.verifier().verify(
                DPoPVerificationInput(proof: forOther, method: "GET", url: url, accessToken: "token-1"))
        }
        _ = try TestKit.verifier().verify(DPoPVerificationInput(proof: forOther, method: "GET", url: url))
    }

    @Test("nonce missing or wrong, each with the nonce to send next")
    func nonce() throws {
        let (_, signer) = try TestKit.signer()
        let requirement = DPoPNonceRequirement(acceptedNonces: ["current"], nonceToSend: "current")
        let withoutNonce = try signer.makeProof(method: "GET", url: url, accessToken: nil, nonce: nil)
        #expect(throws: DPoPError.missingNonce(newNonce: "current")) {
            try TestKit.verifier().verify(
                DPoPVerificationInput(proof: withoutNonce, method: "GET", url: url, nonce: requirement))
        }
        let stale = try signer.makeProof(method: "GET", url: url, accessToken: nil, nonce: "stale")
        do {
            _ = try TestKit.verifier().verify(
                DPoPVerificationInput(proof: stale, method: "GET", url: url, nonce: requirement))
            Issue.record("a stale nonce was accepted")
        } catch {
            #expect(error == .nonceMismatch(newNonce: "current"))
            #expect(error.oauthErrorCode == "use_dpop_nonce")
            #expect(error.nonceToSend == "current")
        }
    }

    @Test("a key other than the session's cnf.jkt")
    func keyBinding() throws {
        let (_, signer) = try TestKit.signer()
        let (_, other) = try TestKit.signer()
        let proof = try signer.makeProof(method: "GET", url: url, accessToken: nil, nonce: nil)
        #expect(throws: DPoPError.keyNotBound) {
            try TestKit.verifier().verify(
                DPoPVerificationInput(proof: proof, method: "GET", url: url, boundThumbprint: other.thumbprint))
        }
    }

    @Test("claims of the wrong type or missing are a bad format")
    func claimTypes() throws {
        let key = try TestKit.crypto.generateP256SigningKey()
        let payloads = [
            #"{"htm":"GET","htu":"https://api.example.com/resource","iat":1}"#,
            #"{"jti":"","htm":"GET","htu":"https://api.example.com/resource","iat":1}"#,
            #"{"jti":"a","htu":"https://api.example.com/resource","iat":1}"#,
            #"{"jti":"a","htm":"GET","iat":1}"#,
            #"{"jti":"a","htm":"GET","htu":"https://api.example.com/resource"}"#,
            #"{"jti":"a","htm":"GET","htu":"https://api.example.com/resource","iat":"1"}"#,
            #"{"jti":"a","htm":"GET","htu":"https://api.example.com/resource","iat":1,"nonce":5}"#,
            #"{"jti":"a","jti":"b","htm":"GET","htu":"https://api.example.com/resource","iat":1}"#,
            TestKit.payload(jti: String(repeating: "j", count: 257)),
            "[]",
        ]
        for payload in payloads {
            let proof = try TestKit.craft(header: try TestKit.header(key), payload: payload, key: key)
            #expect {
                try TestKit.verifier().verify(DPoPVerificationInput(proof: proof, method: "GET", url: url))
            } throws: { error in
                if case .malformedProof = error as? DPoPError { return true }
                return false
            }
        }
    }

    @Test("rejections map to OAuth error codes; messages never repeat request values")
    func errorCodes() throws {
        #expect(DPoPError.invalidSignature.oauthErrorCode == "invalid_dpop_proof")
        #expect(DPoPError.replayed.oauthErrorCode == "invalid_dpop_proof")
        #expect(DPoPError.missingNonce(newNonce: "n").oauthErrorCode == "use_dpop_nonce")
        #expect(DPoPError.invalidURL("x").oauthErrorCode == nil)
        #expect(!DPoPError.missingNonce(newNonce: "secret-nonce").description.contains("secret-nonce"))
        let (_, signer) = try TestKit.signer()
        let proof = try signer.makeProof(method: "GET", url: url, accessToken: "tok-SECRET", nonce: nil)
        do {
            _ = try TestKit.verifier().verify(
                DPoPVerificationInput(proof: proof, method: "GET", url: url, accessToken: "tok-OTHER"))
        } catch {
            #expect(!error.description.contains("SECRET") && !error.description.contains("OTHER"))
        }
    }
}
