import ShareKitCore
import Testing

@Suite("base64url (RFC 4648 section 5)")
struct Base64URLTests {
    @Test(
        "RFC 4648 test vectors without padding",
        arguments: [
            ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ])
    func vectors(plain: String, encoded: String) throws {
        #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
        #expect(try Base64URL.decode(encoded) == Array(plain.utf8))
    }

    @Test("uses - and _ instead of + and /")
    func urlAlphabet() throws {
        let bytes: [UInt8] = [0xFB, 0xFF, 0xBF]
        #expect(Base64URL.encode(bytes) == "-_-_")
        #expect(try Base64URL.decode("-_-_") == bytes)
    }

    @Test("refuses the standard alphabet and impossible lengths", arguments: ["+/+/", "a", "Zm9v!", "abcde"])
    func refuses(text: String) {
        #expect(throws: ShareCoreError.invalidBase64URL) { try Base64URL.decode(text) }
    }
}
