import ShareKitCore
import ShareKitCryptoInterface
import ShareKitDPoP
import ShareKitDPoPInterface
import ShareKitDPoPInterfaceTesting
import ShareKitKeychainInterfaceTesting
import ShareKitSharedStateInterfaceTesting
import ShareKitSystemTesting
import Testing

@Suite("Hostile input never crashes the verifier")
struct HostileInputTests {
    let url = "https://api.example.com/resource"

    /// A deterministic generator, so a failure can be reproduced.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test("mutated proofs: every outcome is a DPoPError")
    func mutations() throws {
        let (_, signer) = try TestKit.signer()
        let verifier = TestKit.verifier()
        let valid = Array(
            try signer.makeProof(method: "GET", url: url, accessToken: "t", nonce: "n").utf8)
        var rng = SplitMix(state: 0x5EED)
        var accepted = 0
        for _ in 0..<3000 {
            var bytes = valid
            switch rng.next() % 4 {
            case 0:
                bytes[Int(rng.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: rng.next())
            case 1:
                bytes.removeSubrange(Int(rng.next() % UInt64(bytes.count))...)
            case 2:
                bytes.insert(UInt8(truncatingIfNeeded: rng.next()), at: Int(rng.next() % UInt64(bytes.count)))
            default:
                let i = Int(rng.next() % UInt64(bytes.count))
                let j = Int(rng.next() % UInt64(bytes.count))
                bytes.swapAt(i, j)
            }
            let proof = String(decoding: bytes, as: UTF8.self)
            do {
                _ = try verifier.verify(
                    DPoPVerificationInput(proof: proof, method: "GET", url: url, accessToken: "t"))
                accepted += 1
            } catch {
                // Typed throws: nothing but a DPoPError can arrive here.
                _ = error.oauthErrorCode
            }
        }
        // Only a swap of two equal bytes leaves the proof intact, and it is then a replay after the first.
        #expect(accepted <= 1)
    }

    @Test("crafted JSON: deep nesting, huge numbers, odd escapes, duplicates, wrong types")
    func craftedJSON() throws {
        let key = try TestKit.crypto.generateP256SigningKey()
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let headers = [
            deep, "{", "{}", "null", #"{"typ":"dpop+jwt","typ":"dpop+jwt"}"#, #"{"typ":"\ud800"}"#,
            #"{"typ":"\u0000"}"#, "{\"typ\":\"dpop+jwt\",\"alg\":\"ES256\",\"jwk\":" + deep + "}",
            #"{"typ":"dpop+jwt","alg":"ES256","jwk":{"kty":"EC","crv":"P-256","x":1e999999,"y":[]}}"#,
            #"{"typ":"dpop+jwt","alg":"ES256","jwk":"string"}"#, "\u{FEFF}{}", "{\"a\":\"\u{1}\"}",
            #"{"typ":"dpop+jwt","alg":"ES256","crit":["b64"],"jwk":{}}"#,
        ]
        for header in headers {
            let proof = try TestKit.craft(header: header, payload: TestKit.payload(), key: key)
            #expect(throws: DPoPError.self) {
                try TestKit.verifier().verify(DPoPVerificationInput(proof: proof, method: "GET", url: url))
            }
        }
        let payloads = [
            deep, #"{"jti":"a","htm":"GET","htu":"https://api.example.com/resource","iat":-1e308}"#,
            #"{"jti":"a","htm":"GET","htu":"https://api.example.com/resource","iat":NaN}"#,
            #"{"jti":"a","htm":"GET","htu":"https://api.example.com/resource","iat":01}"#,
            #"{"jti":"a","htm":"GET","htu":"https://api.example.com/resource","iat":1}trailing"#,
            "{\"jti\":\"a\",\"htm\":\"GET\",\"htu\":\"" + String(repeating: "x", count: 5000) + "\",\"iat\":1}",
            String(decoding: [0xFF, 0xFE, 0x7B, 0x7D], as: UTF8.self),
        ]
        for payload in payloads {
            let proof = try TestKit.craft(header: try TestKit.header(key), payload: payload, key: key)
            #expect(throws: DPoPError.self) {
                try TestKit.verifier().verify(DPoPVerificationInput(proof: proof, method: "GET", url: url))
            }
        }
    }

    @Test("random strings")
    func randomStrings() {
        var rng = SplitMix(state: 42)
        let alphabet = Array("ABCabc012-_.=+/ {}\":,\\\u{0}é".unicodeScalars)
        for _ in 0..<2000 {
            let length = Int(rng.next() % 300)
            var text = ""
            for _ in 0..<length { text.unicodeScalars.append(alphabet[Int(rng.next() % UInt64(alphabet.count))]) }
            #expect(throws: DPoPError.self) {
                try TestKit.verifier().verify(DPoPVerificationInput(proof: text, method: "GET", url: url))
            }
        }
    }

    @Test("hostile WWW-Authenticate and bodies never crash the nonce handler")
    func hostileResponses() throws {
        let handler = DPoPNonceHandler(cache: InMemoryNonceCache())
        let values = [
            "", ",,,,", "DPoP", "DPoP error=", "DPoP error=\"", "DPoP error=\"use_dpop_nonce", "= = =",
            String(repeating: "DPoP a=b, ", count: 5000), "DPoP error=\"\\", "DPoP abc==, error=\"use_dpop_nonce\"",
        ]
        for value in values {
            _ = try handler.evaluate(
                status: 401, headers: ["WWW-Authenticate": value], body: [], url: url, sentNonce: nil, isRetry: false)
        }
        let deep = Array((String(repeating: "[", count: 100_000)).utf8)
        #expect(
            try handler.evaluate(status: 400, headers: [:], body: deep, url: url, sentNonce: nil, isRetry: false)
                == .proceed)
    }
}
