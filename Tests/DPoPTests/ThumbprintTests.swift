import Foundation
import ShareKitCore
import ShareKitCryptoInterface
import ShareKitDPoP
import ShareKitDPoPInterface
import ShareKitDPoPInterfaceTesting
import ShareKitKeychainInterfaceTesting
import ShareKitSharedStateInterfaceTesting
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

@Suite("JWK thumbprints (RFC 7638)")
struct ThumbprintTests {
    /// The thumbprint computed independently of the module: the JSON
    /// written out member by member and hashed, through ShareCore's encoder.
    static func reference(x: [UInt8], y: [UInt8]) throws -> String {
        let json =
            #"{"crv":"P-256","kty":"EC","x":""# + Base64URL.encode(x) + #"","y":""# + Base64URL.encode(y) + #""}"#
        return Base64URL.encode(try TestKit.crypto.sha256(contentsOf: Array(json.utf8)))
    }

    @Test("coordinates with a leading zero byte keep all 32 bytes; Python agrees")
    func leadingZero() throws {
        var found: [(key: any P256SigningKey, signer: ES256ProofSigner)] = []
        var generated = 0
        // About 1 key in 64 has a leading zero byte in x or y.
        while found.count < 2 && generated < 4000 {
            generated += 1
            let key = try TestKit.crypto.generateP256SigningKey()
            if key.publicKey.x[0] == 0 || key.publicKey.y[0] == 0 {
                found.append((key, try ES256ProofSigner(key: key, crypto: TestKit.crypto)))
            }
        }
        #expect(found.count == 2, "no key with a leading zero byte in \(generated) keys")
        for (key, signer) in found {
            #expect(signer.publicJWK.x.utf8.count == 43 && signer.publicJWK.y.utf8.count == 43)
            #expect(signer.thumbprint == (try Self.reference(x: key.publicKey.x, y: key.publicKey.y)))
            if Python.hasJoserfc {
                // joserfc builds the JWK from the integer public numbers and
                // computes the RFC 7638 thumbprint itself.
                let script = """
                    import sys
                    from cryptography.hazmat.primitives.asymmetric import ec
                    from joserfc.jwk import ECKey
                    x, y = int(sys.argv[1], 16), int(sys.argv[2], 16)
                    public = ec.EllipticCurvePublicNumbers(x, y, ec.SECP256R1()).public_key()
                    print(ECKey.import_key(public).thumbprint())
                    """
                let result = try Python.run(script, [Hex.string(key.publicKey.x), Hex.string(key.publicKey.y)])
                #expect(result.status == 0, "python: \(result.stderr)")
                #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == signer.thumbprint)
            }
        }
    }

    @Test("the JWK refuses coordinates that are not canonical 32-byte base64url")
    func jwkValidation() throws {
        let good = String(repeating: "A", count: 43)
        _ = try JWK(x: good, y: good)
        for bad in [
            "", String(repeating: "A", count: 42), String(repeating: "A", count: 44), good.dropLast() + "B",
            good.dropLast() + "=", String(repeating: "+", count: 43),
        ] {
            #expect(throws: DPoPError.self) { try JWK(x: String(bad), y: good) }
        }
        #expect(throws: DPoPError.self) {
            try JWK(xCoordinate: [1, 2, 3], yCoordinate: [UInt8](repeating: 0, count: 32))
        }
    }
}

/// Hexadecimal for passing coordinates to Python.
enum Hex {
    static func string(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
