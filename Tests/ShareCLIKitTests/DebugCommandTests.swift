import Foundation
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// `share debug` run as a separate process, the way a person integrating a
/// server runs it, with the proof checked by an independent JOSE
/// implementation (Python's joserfc).
@Suite("share debug (device key, DPoP proofs)")
struct DebugCommandTests {
    struct Sandbox {
        let dir: TemporaryDirectory
        var environment: [String: String] {
            [
                "SHAREKIT_KEYCHAIN": "file", "SHAREKIT_KEYCHAIN_DIR": dir.file("keychain"),
                "SHAREKIT_CONTAINER_DIR": dir.file("container"),
            ]
        }
        init() throws { dir = try TemporaryDirectory(prefix: "share-debug") }
        func share(_ arguments: [String]) throws -> ProcessResult {
            try runProcess(BuiltProducts.path("share"), arguments, environment: environment)
        }
    }

    @Test("jwk prints the public key and its thumbprint; the key persists across runs in a 0600 item")
    func jwkPersists() throws {
        let box = try Sandbox()
        defer { box.dir.remove() }
        let first = try box.share(["debug", "jwk"])
        #expect(first.status == 0, "\(first.stderr)")
        let json = try #require(JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])
        let jwk = try #require(json["jwk"] as? [String: String])
        #expect(jwk["kty"] == "EC")
        #expect(jwk["crv"] == "P-256")
        #expect(jwk["d"] == nil)
        #expect((json["jkt"] as? String)?.count == 43)
        let second = try box.share(["debug", "jwk"])
        #expect(second.stdout == first.stdout)

        let items = try FileManager.default.subpathsOfDirectory(atPath: box.dir.file("keychain"))
            .filter { $0.hasSuffix(".item") }
        #expect(items.count == 1)
        for item in items {
            let attributes = try FileManager.default.attributesOfItem(atPath: box.dir.file("keychain/\(item)"))
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
        }
    }

    @Test("a proof verifies with joserfc and carries exactly the specified header and claims")
    func proofVerifiesIndependently() throws {
        let box = try Sandbox()
        defer { box.dir.remove() }
        let token = "Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU"
        let tokenFile = box.dir.file("token")
        try Data(token.utf8).write(to: URL(fileURLWithPath: tokenFile))
        let before = Int(Date().timeIntervalSince1970)
        let result = try box.share([
            "debug", "dpop-proof", "--method", "POST", "--url",
            "HTTPS://Chat.Example.COM:443/api/v1/threads/t1/messages?x=1#f",
            "--access-token-file", tokenFile, "--nonce", "n-123",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains(token))
        let proof = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)

        let script = """
            import json, sys
            from joserfc import jws
            from joserfc.jwk import ECKey
            token = sys.argv[1]
            header = json.loads(__import__('base64').urlsafe_b64decode(token.split('.')[0] + '=='))
            key = ECKey.import_key(header['jwk'])
            obj = jws.deserialize_compact(token, key, algorithms=['ES256'])
            print(json.dumps({'header_keys': list(header.keys()), 'header': header,
                              'claims': json.loads(obj.payload), 'payload_raw': obj.payload.decode()}))
            """
        let python = try runProcess("/usr/bin/env", ["python3", "-c", script, proof])
        guard python.status == 0 else {
            if python.stderr.contains("No module named") {
                print("skipped: joserfc is not installed (.ci/run installs it): \(python.stderr)")
                return
            }
            Issue.record("joserfc rejected the proof: \(python.stderr)")
            return
        }
        let out = try #require(JSONSerialization.jsonObject(with: Data(python.stdout.utf8)) as? [String: Any])
        #expect(out["header_keys"] as? [String] == ["typ", "alg", "jwk"])
        let header = try #require(out["header"] as? [String: Any])
        #expect(header["typ"] as? String == "dpop+jwt")
        #expect(header["alg"] as? String == "ES256")
        let claims = try #require(out["claims"] as? [String: Any])
        #expect(Set(claims.keys) == ["jti", "htm", "htu", "iat", "ath", "nonce"])
        #expect(claims["htm"] as? String == "POST")
        #expect(claims["htu"] as? String == "https://chat.example.com/api/v1/threads/t1/messages")
        #expect(claims["ath"] as? String == "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo")
        #expect(claims["nonce"] as? String == "n-123")
        let iat = try #require(claims["iat"] as? Int)
        #expect(iat >= before && iat <= Int(Date().timeIntervalSince1970) + 1)
        let jti = try #require(claims["jti"] as? String)
        #expect(jti.count == 36 && Array(jti)[14] == "7", "jti \(jti) is not a UUIDv7")
        let raw = try #require(out["payload_raw"] as? String)
        #expect(!raw.contains(" ") && raw.hasPrefix("{\"jti\":"), "payload is not compact JSON in order: \(raw)")

        let jwk = try box.share(["debug", "jwk"])
        let published = try #require(JSONSerialization.jsonObject(with: Data(jwk.stdout.utf8)) as? [String: Any])
        #expect((published["jwk"] as? [String: String]) == (header["jwk"] as? [String: String]))
    }

    @Test("without a token the proof has no ath; bad input is a usage error naming it")
    func usage() throws {
        let box = try Sandbox()
        defer { box.dir.remove() }
        let plain = try box.share([
            "debug", "dpop-proof", "--method", "GET", "--url", "http://127.0.0.1:8080/api/v1/spaces",
        ])
        #expect(plain.status == 0)
        let payload = try #require(plain.stdout.split(separator: ".").dropFirst().first)
        var b64 = payload.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while b64.count % 4 != 0 { b64 += "=" }
        let payloadData = try #require(Data(base64Encoded: b64))
        let claims = try #require(JSONSerialization.jsonObject(with: payloadData) as? [String: Any])
        #expect(claims["ath"] == nil && claims["nonce"] == nil)
        #expect(claims["htu"] as? String == "http://127.0.0.1:8080/api/v1/spaces")

        let missing = try box.share(["debug", "dpop-proof", "--method", "GET"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("--url is required"))
        let badURL = try box.share(["debug", "dpop-proof", "--method", "GET", "--url", "not a url"])
        #expect(badURL.status == 2)
        let noFile = try box.share([
            "debug", "dpop-proof", "--method", "GET", "--url", "https://example.com/", "--access-token-file",
            box.dir.file("absent"),
        ])
        #expect(noFile.status == 1)
        #expect(noFile.stderr.contains("cannot read the access token file"))
    }
}
