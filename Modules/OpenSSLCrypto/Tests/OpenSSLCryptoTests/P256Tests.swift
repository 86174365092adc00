import Foundation
import ShareKitCryptoInterface
import ShareKitOpenSSLCrypto
import ShareKitSystemTesting
import Testing

@Suite("P-256 ES256 through libcrypto")
struct P256Tests {
    let crypto: any CryptoProvider = OpenSSLCryptoProvider()
    let message = Array("eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ0ZXN0In0".utf8)

    @Test("sign and verify round trip; signatures are 64 bytes and randomized")
    func roundTrip() throws {
        let key = try crypto.generateP256SigningKey()
        let verifier = try crypto.importP256VerifyingKey(key.publicKey)
        let first = try key.sign(contentsOf: message)
        let second = try key.sign(contentsOf: message)
        #expect(first.count == 64)
        #expect(first != second)
        #expect(verifier.isValidSignature(first, forContentsOf: message))
        #expect(verifier.isValidSignature(second, forContentsOf: message))
        #expect(crypto.isValidP256Signature(first, forContentsOf: message, publicKey: key.publicKey))
    }

    @Test("a tampered signature, message or key fails")
    func tampering() throws {
        let key = try crypto.generateP256SigningKey()
        let verifier = try crypto.importP256VerifyingKey(key.publicKey)
        let signature = try key.sign(contentsOf: message)
        for index in [0, 31, 32, 63] {
            var bad = signature
            bad[index] ^= 0x01
            #expect(!verifier.isValidSignature(bad, forContentsOf: message), "bit flipped in byte \(index)")
        }
        var otherMessage = message
        otherMessage[0] ^= 0x20
        #expect(!verifier.isValidSignature(signature, forContentsOf: otherMessage))
        let otherKey = try crypto.importP256VerifyingKey(try crypto.generateP256SigningKey().publicKey)
        #expect(!otherKey.isValidSignature(signature, forContentsOf: message))
    }

    @Test("malformed signatures are simply invalid")
    func malformedSignatures() throws {
        let key = try crypto.generateP256SigningKey()
        let verifier = try crypto.importP256VerifyingKey(key.publicKey)
        let signature = try key.sign(contentsOf: message)
        let order = Hex.bytes("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
        let zero = [UInt8](repeating: 0, count: 32)
        let candidates: [[UInt8]] = [
            [], Array(signature.prefix(63)), signature + [0], zero + zero, zero + Array(signature[32...]),
            Array(signature[..<32]) + zero, order + Array(signature[32...]), Array(signature[..<32]) + order,
            [UInt8](repeating: 0xFF, count: 64),
        ]
        for candidate in candidates {
            #expect(!verifier.isValidSignature(candidate, forContentsOf: message))
        }
        // A failed verification leaves nothing behind that breaks the next one.
        #expect(verifier.isValidSignature(signature, forContentsOf: message))
    }

    @Test("exporting and importing the scalar gives the same key")
    func scalarRoundTrip() throws {
        for _ in 0..<20 {
            let key = try crypto.generateP256SigningKey()
            let scalar = try key.exportPrivateScalar()
            #expect(scalar.count == 32)
            let imported = try crypto.importP256SigningKey(privateScalar: scalar)
            #expect(imported.publicKey == key.publicKey)
            #expect(try imported.exportPrivateScalar() == scalar)
            let signature = try imported.sign(contentsOf: message)
            #expect(crypto.isValidP256Signature(signature, forContentsOf: message, publicKey: key.publicKey))
        }
    }

    @Test("importing the RFC 6979 A.2.5 private key computes its public point")
    func knownPublicPoint() throws {
        let key = try crypto.importP256SigningKey(
            privateScalar: Hex.bytes("c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721"))
        #expect(Hex.string(key.publicKey.x) == "60fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6")
        #expect(Hex.string(key.publicKey.y) == "7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299")
    }

    @Test("a scalar with leading zero bytes imports and exports at full width")
    func shortScalar() throws {
        let scalar = [UInt8](repeating: 0, count: 31) + [7]
        let key = try crypto.importP256SigningKey(privateScalar: scalar)
        #expect(try key.exportPrivateScalar() == scalar)
        #expect(key.publicKey.x.count == 32 && key.publicKey.y.count == 32)
    }

    @Test("invalid scalars are refused with a reason")
    func invalidScalars() {
        let order = Hex.bytes("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
        #expect(throws: CryptoError.invalidPrivateScalar) {
            try crypto.importP256SigningKey(privateScalar: [UInt8](repeating: 0, count: 32))
        }
        #expect(throws: CryptoError.invalidPrivateScalar) { try crypto.importP256SigningKey(privateScalar: order) }
        #expect(throws: CryptoError.invalidPrivateScalar) {
            try crypto.importP256SigningKey(privateScalar: [UInt8](repeating: 0xFF, count: 32))
        }
        #expect(throws: CryptoError.invalidLength(what: "P-256 private scalar", expected: 32, actual: 31)) {
            try crypto.importP256SigningKey(privateScalar: [UInt8](repeating: 1, count: 31))
        }
        var belowOrder = order
        belowOrder[31] -= 1
        #expect(throws: Never.self) { try crypto.importP256SigningKey(privateScalar: belowOrder) }
    }

    @Test("a point off the curve is not a public key")
    func offCurve() throws {
        let key = try crypto.generateP256SigningKey()
        var y = key.publicKey.y
        y[31] ^= 0x01
        #expect(throws: CryptoError.invalidPublicKey) {
            try crypto.importP256VerifyingKey(try P256PublicKey(x: key.publicKey.x, y: y))
        }
        let zero = [UInt8](repeating: 0, count: 32)
        #expect(throws: CryptoError.invalidPublicKey) {
            try crypto.importP256VerifyingKey(try P256PublicKey(x: zero, y: zero))
        }
        #expect(throws: CryptoError.invalidLength(what: "P-256 x coordinate", expected: 32, actual: 33)) {
            try P256PublicKey(x: zero + [0], y: zero)
        }
        #expect(
            !crypto.isValidP256Signature(
                [UInt8](repeating: 1, count: 64), forContentsOf: message,
                publicKey: try P256PublicKey(x: zero, y: zero)))
    }

    @Test("signatures with a short R or S are left-padded and verify")
    func leftPadding() throws {
        let key = try crypto.generateP256SigningKey()
        let verifier = try crypto.importP256VerifyingKey(key.publicKey)
        var found = 0
        var attempts = 0
        // About 1 signature in 64 has a leading zero byte in R or S.
        while found < 2 && attempts < 5000 {
            attempts += 1
            let signature = try key.sign(contentsOf: message + [UInt8(truncatingIfNeeded: attempts)])
            #expect(signature.count == 64)
            if signature[0] == 0 || signature[32] == 0 {
                found += 1
                #expect(
                    verifier.isValidSignature(signature, forContentsOf: message + [UInt8(truncatingIfNeeded: attempts)])
                )
            }
        }
        #expect(found == 2, "no short R or S in \(attempts) signatures")
    }

    @Test("one key signs and verifies from many threads at once")
    func concurrentUse() async throws {
        let key = try crypto.generateP256SigningKey()
        let verifier = try crypto.importP256VerifyingKey(key.publicKey)
        let message = self.message
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for round in 0..<100 {
                        let text = message + [UInt8(worker), UInt8(round)]
                        let signature = try key.sign(contentsOf: text)
                        guard verifier.isValidSignature(signature, forContentsOf: text) else { return false }
                    }
                    return true
                }
            }
            for try await ok in group { #expect(ok) }
        }
    }

    @Test(
        "a signature verifies with Python's cryptography (an independent ECDSA)",
        .enabled(if: PythonCryptography.isAvailable))
    func independentVerification() throws {
        let key = try crypto.generateP256SigningKey()
        let signature = try key.sign(contentsOf: message)
        let script = """
            import sys
            from cryptography.hazmat.primitives.asymmetric import ec
            from cryptography.hazmat.primitives import hashes
            from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
            x, y, sig, msg = (bytes.fromhex(a) for a in sys.argv[1:5])
            key = ec.EllipticCurvePublicNumbers(int.from_bytes(x, 'big'), int.from_bytes(y, 'big'), ec.SECP256R1()).public_key()
            key.verify(encode_dss_signature(int.from_bytes(sig[:32], 'big'), int.from_bytes(sig[32:], 'big')), msg, ec.ECDSA(hashes.SHA256()))
            print('ok')
            """
        let result = try PythonCryptography.run(
            script,
            [Hex.string(key.publicKey.x), Hex.string(key.publicKey.y), Hex.string(signature), Hex.string(message)])
        #expect(result.status == 0, "python: \(result.stderr)")
        #expect(result.stdout == "ok\n")
    }

    @Test("random bytes: requested length, different each time, bounded")
    func random() throws {
        #expect(try crypto.randomBytes(count: 0).isEmpty)
        let a = try crypto.randomBytes(count: 32)
        let b = try crypto.randomBytes(count: 32)
        #expect(a.count == 32 && b.count == 32 && a != b)
        #expect(throws: CryptoError.self) { try crypto.randomBytes(count: -1) }
        #expect(throws: CryptoError.self) { try crypto.randomBytes(count: CryptoLimits.maxRandomByteCount + 1) }
    }

    @Test("error messages name sizes and operations, never values")
    func errorMessages() {
        #expect(
            CryptoError.invalidLength(what: "P-256 x coordinate", expected: 32, actual: 31).description
                == "P-256 x coordinate must be 32 bytes, got 31")
        #expect(CryptoError.backendFailure(operation: "EVP_PKEY_sign", code: 42).description.contains("EVP_PKEY_sign"))
    }
}
