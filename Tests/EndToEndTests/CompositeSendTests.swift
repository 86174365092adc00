import Foundation
import ShareKitClientTestSupport
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// `share send` of a file, as a person runs it, against a server that
/// lists `sha256-composite`: the upload goes with the composite digest
/// (the limits the login stored carry the form to the uploader), and the
/// message's attachment says so.
@Suite("share send: the composite upload digest")
struct CompositeSendTests {
    @Test(
        "a file sent with share send is uploaded with the composite digest: the attachment is marked and its sha256 is the SHA-256 of the part digests"
    )
    func sendUsesTheCompositeForm() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        // Smaller than a part (the demo seed's part size is the default 8 MiB):
        // the composite digest is the SHA-256 of the one part's SHA-256.
        let path = fixture.sandbox.home.file("notes.txt")
        try Data(String(repeating: "the gateway resumes at nine\n", count: 100).utf8).write(
            to: URL(fileURLWithPath: path))
        let sent = try fixture.share(["send", path, "--to", "thread:t1"])
        #expect(sent.status == 0, "\(sent.stdout) \(sent.stderr)")
        let messages = try await fixture.messages(thread: "t1")
        let attachment = try #require((messages.last?["attachments"] as? [[String: Any]])?.first)
        #expect(attachment["digest_algorithm"] as? String == "sha256-composite")
        let plain = try fixture.sandbox.sha256Hex(ofFile: path)
        let partDigest = try #require(Self.bytes(ofHex: plain))
        let digestFile = fixture.sandbox.home.file("part-digests.bin")
        try Data(partDigest).write(to: URL(fileURLWithPath: digestFile))
        let composite = try fixture.sandbox.sha256Hex(ofFile: digestFile)
        #expect(attachment["sha256"] as? String == composite)
        #expect(try fixture.sandbox.compositeSHA256Hex(ofFile: path) == composite)

        // share send --json says which digest it prints, so a script does not
        // compare it with sha256sum.
        let json = try fixture.share(["send", path, "--to", "thread:t1", "--json"])
        #expect(json.status == 0, "\(json.stdout) \(json.stderr)")
        let printed = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json.stdout)")
        let printedAttachment = try #require((printed["attachments"] as? [[String: Any]])?.first)
        #expect(printedAttachment["digest_algorithm"] as? String == "sha256-composite")
        #expect(printedAttachment["sha256"] as? String == composite)
    }

    /// The bytes of a hex string.
    static func bytes(ofHex hex: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) ?? hex.endIndex
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
