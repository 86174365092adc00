import ShareKitCryptoInterface
import ShareKitOpenSSLCrypto
import ShareKitSystemTesting
import Testing

@Suite("SHA-256 through libcrypto")
struct SHA256Tests {
    let crypto: any CryptoProvider = OpenSSLCryptoProvider()

    @Test(
        "FIPS 180-2 / NIST test vectors",
        arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
        ])
    func vectors(message: String, digest: String) throws {
        #expect(Hex.string(try crypto.sha256(contentsOf: Array(message.utf8))) == digest)
    }

    @Test("one million times 'a', fed in pieces of 1000")
    func millionA() throws {
        var hasher = try crypto.makeSHA256Hasher()
        let piece = [UInt8](repeating: 0x61, count: 1000)
        for _ in 0..<1000 { hasher.update(contentsOf: piece) }
        #expect(
            Hex.string(try hasher.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("streaming in odd chunk sizes equals one-shot", arguments: [1, 3, 7, 13, 55, 63, 64, 65, 127, 1000, 4099])
    func streamingEqualsOneShot(chunk: Int) throws {
        let message = try crypto.randomBytes(count: 10_007)
        var hasher = try crypto.makeSHA256Hasher()
        var offset = 0
        while offset < message.count {
            let end = min(offset + chunk, message.count)
            message[offset..<end].withUnsafeBytes { hasher.update($0) }
            offset = end
        }
        #expect(try hasher.finalize() == crypto.sha256(contentsOf: message))
    }

    @Test("a hasher starts over after finalize, and empty updates change nothing")
    func reuse() throws {
        var hasher = try crypto.makeSHA256Hasher()
        hasher.update(contentsOf: Array("ab".utf8))
        hasher.update(contentsOf: [UInt8]())
        hasher.update(contentsOf: Array("c".utf8))
        let first = try hasher.finalize()
        hasher.update(contentsOf: Array("abc".utf8))
        #expect(try hasher.finalize() == first)
        #expect(Hex.string(try hasher.finalize()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("non-contiguous collections hash like arrays")
    func nonContiguous() throws {
        let text = "the quick brown fox"
        #expect(
            try crypto.sha256(contentsOf: text.utf8.reversed().reversed())
                == crypto.sha256(contentsOf: Array(text.utf8)))
    }
}
