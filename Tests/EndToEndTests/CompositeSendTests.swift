import Foundation
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitInboxInterface
import ShareKitSharedStateInterface
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

    /// The demo's users with 64 KiB parts, so a small file has several.
    static var smallPartsSeed: [String: Any] { SendInterruptTests.slowUploadSeed }

    /// The SHA-256 of each 64 KiB part of a file, as lowercase hex.
    static func partDigests(ofFile path: String, in fixture: ShareCLIFixture, partSize: Int = 65_536) throws
        -> [String]
    {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        var digests: [String] = []
        var offset = 0
        repeat {
            let end = min(bytes.count, offset + partSize)
            let part = fixture.sandbox.home.file("part-\(digests.count).bin")
            try bytes.subdata(in: offset..<end).write(to: URL(fileURLWithPath: part))
            digests.append(try fixture.sandbox.sha256Hex(ofFile: part))
            offset = end
        } while offset < bytes.count
        return digests
    }

    /// The one inbox entry's folder and its manifest as JSON.
    static func onlyEntry(_ fixture: ShareCLIFixture) throws -> (folder: String, manifest: [String: Any]) {
        let entry = try #require(try fixture.scanInbox().entries.first)
        let folder = fixture.sandbox.assembly.container.inboxPath + "/" + entry.id
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/manifest.json"))
        return (folder, try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any]))
    }

    /// Leaves the server's limits (part size, digest forms) in the shared
    /// state, as any earlier file share does: intake asks for part digests
    /// only when it knows them.
    static func cacheLimits(_ fixture: ShareCLIFixture) throws {
        let first = try fixture.share([
            "send", try fixture.sandbox.writeFile("first.bin", size: 10), "--to", "thread:t1",
        ])
        #expect(first.status == 0, "\(first.stdout) \(first.stderr)")
    }

    /// `share send PATH --to thread:t1 --queue`.
    static func queue(_ path: String, _ fixture: ShareCLIFixture) throws {
        let queued = try fixture.share(["send", path, "--to", "thread:t1", "--queue"])
        #expect(queued.status == 0, "\(queued.stdout) \(queued.stderr)")
    }

    /// Rewrites the one entry's kept digests: `parts` times `digest` at 64 KiB, well formed.
    static func replaceKeptDigests(_ fixture: ShareCLIFixture, with digest: String, parts: Int) throws {
        let (folder, manifest) = try onlyEntry(fixture)
        var changed = manifest
        var attachments = try #require(manifest["attachments"] as? [[String: Any]])
        #expect(attachments[0]["part_digests"] != nil, "\(attachments[0])")
        attachments[0]["part_digests"] = ["part_size": 65_536, "sha256": Array(repeating: digest, count: parts)]
        changed["attachments"] = attachments
        try JSONSerialization.data(withJSONObject: changed).write(to: URL(fileURLWithPath: folder + "/manifest.json"))
    }

    @Test(
        "share send --queue keeps the part digests of the inbox copy, hashed while it was copied, at the server's part size; the share sends with them"
    )
    func queuedCopyKeepsItsPartDigests() async throws {
        let fixture = try await ShareCLIFixture(seed: Self.smallPartsSeed)
        defer { fixture.close() }
        try Self.cacheLimits(fixture)
        let path = try fixture.sandbox.writeFile("data.bin", size: 3 * 65_536 + 100)
        try Self.queue(path, fixture)
        let (_, manifest) = try Self.onlyEntry(fixture)
        let attachment = try #require((manifest["attachments"] as? [[String: Any]])?.first, "\(manifest)")
        let stored = try #require(attachment["part_digests"] as? [String: Any], "\(attachment)")
        #expect(stored["part_size"] as? Int == 65_536)
        #expect(stored["sha256"] as? [String] == (try Self.partDigests(ofFile: path, in: fixture)))

        let retried = try fixture.share(["inbox", "retry", try #require(try fixture.scanInbox().entries.first).id])
        #expect(retried.status == 0, "\(retried.stdout) \(retried.stderr)")
        let message = try #require(try await fixture.messages(thread: "t1").last)
        let sent = try #require((message["attachments"] as? [[String: Any]])?.first)
        #expect(sent["sha256"] as? String == (try fixture.sandbox.compositeSHA256Hex(ofFile: path, partSize: 65_536)))
        #expect(!fixture.server.log.contains(" 422 "), "no part was refused against the kept digests")
        #expect(try fixture.scanInbox().entries.isEmpty)
    }

    @Test(
        "an inbox entry whose kept part digests are not its copy's: the server refuses the part, the upload hashes the copy, and the share is sent"
    )
    func wrongKeptDigestsStillSend() async throws {
        let fixture = try await ShareCLIFixture(seed: Self.smallPartsSeed)
        defer { fixture.close() }
        try Self.cacheLimits(fixture)
        let path = try fixture.sandbox.writeFile("data.bin", size: 2 * 65_536 + 7)
        try Self.queue(path, fixture)
        // Well-formed digests of other bytes, as whoever can write the shared container could leave.
        try Self.replaceKeptDigests(fixture, with: String(repeating: "0", count: 64), parts: 3)

        let retried = try fixture.share(["inbox", "retry", try #require(try fixture.scanInbox().entries.first).id])
        #expect(retried.status == 0, "\(retried.stdout) \(retried.stderr)")
        let message = try #require(try await fixture.messages(thread: "t1").last)
        let sent = try #require((message["attachments"] as? [[String: Any]])?.first)
        #expect(sent["sha256"] as? String == (try fixture.sandbox.compositeSHA256Hex(ofFile: path, partSize: 65_536)))
        // The kept digests went to the server (and were refused there) before the copy was hashed.
        #expect(fixture.server.log.contains(" 422 "), "\(fixture.server.log.suffix(2000))")
        #expect(try fixture.scanInbox().entries.isEmpty)
    }

    @Test(
        "share-daemon takes over an entry with its kept part digests and uploads with them: kept digests that are not the copy's reach the server (refused there), and the share is still sent"
    )
    func daemonTakesTheDigestsOver() async throws {
        let fixture = try await ShareCLIFixture(seed: Self.smallPartsSeed)
        defer { fixture.close() }
        try Self.cacheLimits(fixture)
        // One entry as share send --queue keeps it, one whose digests were changed behind its back.
        let kept = try fixture.sandbox.writeFile("kept.bin", size: 2 * 65_536 + 3, seed: 1)
        try Self.queue(kept, fixture)
        let pass = try fixture.daemon(["--once"])
        #expect(pass.status == 0, "\(pass.stderr)")
        #expect(!fixture.server.log.contains(" 422 "), "the kept digests are the copy's")

        let changed = try fixture.sandbox.writeFile("changed.bin", size: 2 * 65_536 + 3, seed: 2)
        try Self.queue(changed, fixture)
        try Self.replaceKeptDigests(fixture, with: String(repeating: "e", count: 64), parts: 3)
        let second = try fixture.daemon(["--once"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(fixture.server.log.contains(" 422 "), "the kept digests reached the server through the outbox")

        let sent = try await fixture.messages(thread: "t1").compactMap {
            ($0["attachments"] as? [[String: Any]])?.first?["sha256"] as? String
        }
        #expect(sent.contains(try fixture.sandbox.compositeSHA256Hex(ofFile: kept, partSize: 65_536)))
        #expect(sent.contains(try fixture.sandbox.compositeSHA256Hex(ofFile: changed, partSize: 65_536)))
        #expect(try fixture.scanInbox().entries.isEmpty)
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
