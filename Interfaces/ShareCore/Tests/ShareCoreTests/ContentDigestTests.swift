import ShareKitCore
import Testing

@Suite("Content-Digest (RFC 9530) and hex")
struct ContentDigestTests {
    // SHA-256 of the empty string.
    let empty: [UInt8] = [
        0xe3, 0xb0, 0xc4, 0x42, 0x98, 0xfc, 0x1c, 0x14, 0x9a, 0xfb, 0xf4, 0xc8, 0x99, 0x6f, 0xb9, 0x24,
        0x27, 0xae, 0x41, 0xe4, 0x64, 0x9b, 0x93, 0x4c, 0xa4, 0x95, 0x99, 0x1b, 0x78, 0x52, 0xb8, 0x55,
    ]

    @Test("hex is lowercase, two characters a byte")
    func hex() {
        #expect(Hex.encode(empty) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Hex.encode([0x00, 0x0f, 0xf0, 0xff]) == "000ff0ff")
        #expect(Hex.encode([UInt8]()).isEmpty)
    }

    @Test("the field value a client writes is the one the server reads back")
    func roundTrip() {
        let digest = ContentDigest(sha256: empty)
        #expect(digest.headerValue == "sha-256=:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=:")
        #expect(ContentDigest.headerValue(base64: digest.base64) == digest.headerValue)
        #expect(ContentDigest.parse([digest.headerValue]) == digest)
    }

    @Test("other algorithms are skipped, a repeated key takes the last value")
    func dictionary() {
        let digest = ContentDigest(sha256: empty)
        #expect(ContentDigest.parse(["sha-512=:AAAA:, " + digest.headerValue]) == digest)
        #expect(
            ContentDigest.parse(["sha-256=:" + String(repeating: "A", count: 43) + "=:", digest.headerValue]) == digest)
    }

    @Test(
        "malformed fields are refused",
        arguments: [
            [], ["sha-256=47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="], ["sha-256=:AAAA:"], ["SHA-256=:x:"],
            ["sha-256=:47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU=:"], ["sha-512=:AAAA:"],
        ])
    func refused(lines: [String]) {
        #expect(ContentDigest.parse(lines) == nil)
    }
}
