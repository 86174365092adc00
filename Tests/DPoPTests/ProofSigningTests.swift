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

@Suite("Making proofs")
struct ProofSigningTests {
    @Test("header: typ, alg, jwk in that order; jwk members crv, kty, x, y; no whitespace")
    func headerBytes() throws {
        let (key, signer) = try TestKit.signer()
        let proof = try signer.makeProof(method: "GET", url: "https://api.example.com/x", accessToken: nil, nonce: nil)
        let x = Base64URL.encode(key.publicKey.x)
        let y = Base64URL.encode(key.publicKey.y)
        #expect(
            try TestKit.decode(proof).header
                == #"{"typ":"dpop+jwt","alg":"ES256","jwk":{"crv":"P-256","kty":"EC","x":""# + x + #"","y":""# + y
                + #""}}"#)
        #expect(signer.publicJWK.x == x && signer.publicJWK.y == y)
    }

    @Test("payload without token or nonce: jti, htm, htu, iat, exactly")
    func minimalPayload() throws {
        let (_, signer) = try TestKit.signer()
        let proof = try signer.makeProof(
            method: "POST", url: "HTTPS://Server.Example.com:443/token?x=1#frag", accessToken: nil, nonce: nil)
        let payload = try TestKit.decode(proof).payload
        let jti = try #require(TestKit.claims(proof)["jti"] as? String)
        #expect(
            payload == #"{"jti":""# + jti + #"","htm":"POST","htu":"https://server.example.com/token","iat":"#
                + String(TestKit.now) + "}")
    }

    @Test("payload with token and nonce: ath then nonce last, exactly")
    func fullPayload() throws {
        let (_, signer) = try TestKit.signer()
        let proof = try signer.makeProof(
            method: "GET", url: "https://resource.example.org/protectedresource",
            accessToken: RFC9449Examples.accessToken, nonce: "eyJ7S_zG.eyJH0-Z.HX4w-7v")
        let payload = try TestKit.decode(proof).payload
        let jti = try #require(TestKit.claims(proof)["jti"] as? String)
        #expect(
            payload
                == #"{"jti":""# + jti
                + #"","htm":"GET","htu":"https://resource.example.org/protectedresource","iat":"#
                + String(TestKit.now) + #","ath":""# + RFC9449Examples.accessTokenHash
                + #"","nonce":"eyJ7S_zG.eyJH0-Z.HX4w-7v"}"#)
    }

    @Test("each proof's ath is its own token's, when tokens alternate and after a refresh")
    func athFollowsTheToken() throws {
        let (_, signer) = try TestKit.signer()
        let tokens = [RFC9449Examples.accessToken, "a-refreshed-token", RFC9449Examples.accessToken, "another"]
        for token in tokens + tokens.reversed() {
            for url in ["https://a.example/x", "https://a.example/y"] {
                let proof = try signer.makeProof(method: "GET", url: url, accessToken: token, nonce: nil)
                let expected = Base64URL.encode(try TestKit.crypto.sha256(contentsOf: token.utf8))
                #expect(try TestKit.claims(proof)["ath"] as? String == expected, "\(token) \(url)")
                #expect(try TestKit.claims(proof)["htu"] as? String == url)
            }
        }
        let withoutToken = try signer.makeProof(method: "GET", url: "https://a.example/x", accessToken: nil, nonce: nil)
        #expect(try TestKit.claims(withoutToken)["ath"] == nil)
    }

    @Test("jti is a UUIDv7 of the current time, unique and increasing")
    func jti() throws {
        let (_, signer) = try TestKit.signer()
        var previous: UUIDv7? = nil
        for _ in 0..<200 {
            let proof = try signer.makeProof(method: "GET", url: "https://a.example/", accessToken: nil, nonce: nil)
            let text = try #require(TestKit.claims(proof)["jti"] as? String)
            let id = try UUIDv7(string: text)
            #expect(id.description == text)
            let ageMillis = Int64(Date().timeIntervalSince1970 * 1000) - Int64(id.milliseconds)
            #expect(ageMillis >= -5 && ageMillis < 60_000)
            if let previous { #expect(previous < id) }
            previous = id
        }
    }

    @Test("string values are JSON-escaped; Foundation reads back the exact nonce")
    func escaping() throws {
        let (_, signer) = try TestKit.signer()
        let nonce = "quote\" backslash\\ newline\n tab\t bell\u{07} é"
        let proof = try signer.makeProof(method: "GET", url: "https://a.example/", accessToken: nil, nonce: nonce)
        let payload = try TestKit.decode(proof).payload
        #expect(payload.contains(#""nonce":"quote\" backslash\\ newline\n tab\t bell\u0007 é""#))
        #expect(try TestKit.claims(proof)["nonce"] as? String == nonce)
    }

    @Test("the signature is R||S over header.payload and verifies with the JWK's key")
    func signature() throws {
        let (key, signer) = try TestKit.signer()
        let proof = try signer.makeProof(method: "GET", url: "https://a.example/", accessToken: nil, nonce: nil)
        let parts = proof.split(separator: ".")
        let signature = try Base64URL.decode(parts[2])
        #expect(signature.count == 64)
        #expect(
            TestKit.crypto.isValidP256Signature(
                signature, forContentsOf: Array((parts[0] + "." + parts[1]).utf8), publicKey: key.publicKey))
    }

    @Test("the signer's thumbprint is the JWK's RFC 7638 thumbprint")
    func thumbprint() throws {
        let (_, signer) = try TestKit.signer()
        #expect(signer.thumbprint == (try JWKThumbprint.sha256(of: signer.publicJWK, crypto: TestKit.crypto)))
        #expect(signer.thumbprint.utf8.count == 43)
    }

    @Test("unusable methods and URLs are refused", arguments: ["", "GET POST", "GE\nT", "G\u{e9}T"])
    func badMethods(method: String) throws {
        let (_, signer) = try TestKit.signer()
        #expect(throws: DPoPError.invalidMethod) {
            try signer.makeProof(method: method, url: "https://a.example/", accessToken: nil, nonce: nil)
        }
    }

    @Test("a URL that is not http(s) is refused with a reason", arguments: ["ftp://a.example/", "a.example/x", ""])
    func badURLs(url: String) throws {
        let (_, signer) = try TestKit.signer()
        #expect(throws: DPoPError.self) {
            try signer.makeProof(method: "GET", url: url, accessToken: nil, nonce: nil)
        }
    }
}
