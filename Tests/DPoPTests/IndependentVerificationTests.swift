import Foundation
import ShareKitDPoP
import ShareKitDPoPInterface
import ShareKitDPoPInterfaceTesting
import ShareKitKeychainInterfaceTesting
import ShareKitSharedStateInterfaceTesting
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// A proof made by the module, checked by an independent JOSE
/// implementation (Python's joserfc over pyca/cryptography).
@Suite("Independent verification with joserfc")
struct IndependentVerificationTests {
    static let script = """
        import json, sys
        from joserfc import jws
        from joserfc.jwk import ECKey
        token = sys.stdin.read().strip()
        header_b64, payload_b64, _ = token.split(".")
        import base64
        def b64(s): return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))
        header = json.loads(b64(header_b64))
        key = ECKey.import_key(header["jwk"])
        obj = jws.deserialize_compact(token, key, algorithms=["ES256"])
        print(json.dumps({"header": obj.headers(), "claims": json.loads(obj.payload),
                          "thumbprint": key.thumbprint(), "header_raw": b64(header_b64).decode(),
                          "payload_raw": b64(payload_b64).decode()}))
        """

    @Test("a proof verifies with joserfc and its claims are exactly as specified", .enabled(if: Python.hasJoserfc))
    func joserfc() throws {
        let (_, signer) = try TestKit.signer()
        let proof = try signer.makeProof(
            method: "POST", url: "https://Server.Example.com:443/api/v1/uploads?x=1",
            accessToken: RFC9449Examples.accessToken, nonce: "n-\"1\"")
        let result = try Python.run(Self.script, stdin: proof)
        #expect(result.status == 0, "joserfc refused the proof: \(result.stderr)")
        let output = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let header = try #require(output["header"] as? [String: Any])
        let claims = try #require(output["claims"] as? [String: Any])
        #expect(header["typ"] as? String == "dpop+jwt")
        #expect(header["alg"] as? String == "ES256")
        #expect(Set((header["jwk"] as? [String: Any] ?? [:]).keys) == ["crv", "kty", "x", "y"])
        #expect(output["thumbprint"] as? String == signer.thumbprint)
        #expect(Set(claims.keys) == ["jti", "htm", "htu", "iat", "ath", "nonce"])
        #expect(claims["htm"] as? String == "POST")
        #expect(claims["htu"] as? String == "https://server.example.com/api/v1/uploads")
        #expect((claims["iat"] as? NSNumber)?.int64Value == TestKit.now)
        #expect(claims["ath"] as? String == RFC9449Examples.accessTokenHash)
        #expect(claims["nonce"] as? String == "n-\"1\"")
        #expect((claims["jti"] as? String).map { $0.count == 36 } == true)
        // Member order as written, which joserfc's dict keeps from the JSON.
        let payloadRaw = try #require(output["payload_raw"] as? String)
        let order = ["\"jti\"", "\"htm\"", "\"htu\"", "\"iat\"", "\"ath\"", "\"nonce\""].compactMap {
            payloadRaw.range(of: $0)?.lowerBound
        }
        #expect(order.count == 6 && order == order.sorted())
        let headerRaw = try #require(output["header_raw"] as? String)
        #expect(headerRaw.hasPrefix(#"{"typ":"dpop+jwt","alg":"ES256","jwk":{"crv":"P-256","kty":"EC","x":""#))
    }

    @Test("joserfc refuses a proof with a changed claim (the check is real)", .enabled(if: Python.hasJoserfc))
    func joserfcRefusesTampering() throws {
        let (_, signer) = try TestKit.signer()
        let proof = try signer.makeProof(method: "GET", url: "https://a.example/", accessToken: nil, nonce: nil)
        let parts = proof.split(separator: ".").map(String.init)
        let tampered = parts[0] + "." + parts[1].dropLast(2) + (parts[1].hasSuffix("fQ") ? "fA" : "fQ") + "." + parts[2]
        let result = try Python.run(Self.script, stdin: tampered)
        #expect(result.status != 0)
    }
}
