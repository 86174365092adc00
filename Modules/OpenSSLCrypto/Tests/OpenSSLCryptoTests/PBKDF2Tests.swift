import ShareKitCryptoInterface
import ShareKitOpenSSLCrypto
import ShareKitSystemTesting
import Testing

@Suite("PBKDF2-HMAC-SHA-256 through libcrypto")
struct PBKDF2Tests {
    let crypto: any CryptoProvider = OpenSSLCryptoProvider()

    // The expected value comes from Python's hashlib.pbkdf2_hmac, computed in
    // the same run rather than pasted in.
    @Test("matches an independent implementation (Python hashlib)")
    func matchesPython() throws {
        let password = Array("pleaseletmein".utf8)
        let salt = Array("SodiumChlorideNaCl".utf8)
        let derived = try crypto.pbkdf2SHA256(password: password, salt: salt, iterations: 1000, length: 32)
        let script =
            "import hashlib;print(hashlib.pbkdf2_hmac('sha256', b'pleaseletmein', b'SodiumChlorideNaCl', 1000, 32).hex())"
        let python = try PythonCryptography.run(script, [])
        #expect(python.status == 0, "\(python.stderr)")
        #expect(Hex.string(derived) + "\n" == python.stdout)
    }

    @Test("salt, iterations and password change the result; equal inputs give equal keys")
    func sensitivity() throws {
        let salt = [UInt8](repeating: 7, count: 16)
        let a = try crypto.pbkdf2SHA256(password: Array("alex".utf8), salt: salt, iterations: 10, length: 32)
        #expect(a == (try crypto.pbkdf2SHA256(password: Array("alex".utf8), salt: salt, iterations: 10, length: 32)))
        #expect(a != (try crypto.pbkdf2SHA256(password: Array("alex!".utf8), salt: salt, iterations: 10, length: 32)))
        #expect(a != (try crypto.pbkdf2SHA256(password: Array("alex".utf8), salt: salt, iterations: 11, length: 32)))
        var other = salt
        other[0] = 8
        #expect(a != (try crypto.pbkdf2SHA256(password: Array("alex".utf8), salt: other, iterations: 10, length: 32)))
    }

    @Test("short salts, zero iterations and odd lengths are refused")
    func refusals() {
        let salt = [UInt8](repeating: 1, count: 16)
        #expect(throws: CryptoError.self) {
            try crypto.pbkdf2SHA256(password: [], salt: [1, 2, 3], iterations: 10, length: 32)
        }
        #expect(throws: CryptoError.self) {
            try crypto.pbkdf2SHA256(password: [], salt: salt, iterations: 0, length: 32)
        }
        #expect(throws: CryptoError.self) {
            try crypto.pbkdf2SHA256(password: [], salt: salt, iterations: 1, length: 65)
        }
    }
}
