import Foundation
import ShareKitCoreTesting
import ShareKitInbox
import ShareKitInboxInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("inbox: corrupt and foreign entries are quarantined with a reason")
struct InboxQuarantineTests {
    /// One broken entry of each kind, planted beside two good ones; the
    /// reason each must get.
    @Test("each broken entry is quarantined with its reason and the good entries are still listed")
    func brokenEntries() throws {
        let fixture = try InboxFixture()
        defer { fixture.remove() }
        try fixture.commitEntry(id: "good-1")
        let four: [(name: String, bytes: [UInt8])] = [("1-a.bin", [1, 2, 3, 4])]

        try fixture.plantEntry(name: "corrupt", manifestJSON: "{\"format_version\": 1, \"client_msg_id\": ")
        var newer = fixture.manifest(id: "newer", files: four)
        newer.formatVersion = 2
        try fixture.plantEntry(name: "newer", manifestJSON: try fixture.json(newer), files: four)
        var escaping = fixture.manifest(id: "escaping", files: four)
        escaping.attachments[0].file = "../x"
        try fixture.plantEntry(name: "escaping", manifestJSON: try fixture.json(escaping))
        try fixture.write([1, 2, 3, 4], to: fixture.inboxPath + "/x")
        let outside = fixture.temporary.file("outside.bin")
        try fixture.write([9, 9, 9, 9], to: outside)
        try fixture.plantEntry(
            name: "linked", manifestJSON: try fixture.json(fixture.manifest(id: "linked", files: four)))
        try FileManager.default.createSymbolicLink(
            atPath: fixture.inboxPath + "/linked/1-a.bin", withDestinationPath: outside)
        try fixture.plantEntry(
            name: "missing", manifestJSON: try fixture.json(fixture.manifest(id: "missing", files: four)))
        try fixture.plantEntry(
            name: "short", manifestJSON: try fixture.json(fixture.manifest(id: "short", files: four)),
            files: [("1-a.bin", [1, 2])])
        try fixture.plantEntry(
            name: "mismatch", manifestJSON: try fixture.json(fixture.manifest(id: "other", files: [])))
        try fixture.plantEntry(name: "empty", manifestJSON: nil)
        try fixture.plantEntry(name: "bad.name", manifestJSON: try fixture.json(fixture.manifest(id: "bad.name")))
        try fixture.write(Array("stray".utf8), to: fixture.inboxPath + "/stray.txt")
        try FileManager.default.createSymbolicLink(
            atPath: fixture.inboxPath + "/dangling", withDestinationPath: "/nonexistent")
        try fixture.commitEntry(id: "good-2")

        let scan = try fixture.inbox.scan()
        #expect(scan.entries.map(\.id) == ["good-1", "good-2"])
        let reasons = Dictionary(scan.quarantined.map { ($0.id, $0.reason) }, uniquingKeysWith: { $1 })
        let expected: [String: String] = [
            "corrupt": "manifest.json is not valid: it is not a JSON object",
            "newer": "written by a newer ShareKit (format 2)",
            "escaping": "the attachment file name \"../x\" is not a plain name inside the entry",
            "x": "a stray file where an entry folder should be",
            "linked": "the attachment \"1-a.bin\" is a symbolic link",
            "missing": "the attachment \"1-a.bin\" is missing",
            "short": "the attachment \"1-a.bin\" has 2 bytes, the manifest says 4",
            "mismatch": "its client_msg_id does not match the folder name",
            "empty": "manifest.json is missing",
            "bad.name": "the folder name is not an entry id (1 to 64 of A-Z a-z 0-9 _ -)",
            "stray.txt": "a stray file where an entry folder should be",
            "dangling": "a symbolic link where an entry folder should be",
        ]
        #expect(reasons == expected)
        // Only the good entries remain in the inbox; everything else is in quarantine, with its record.
        #expect(fixture.names(in: fixture.inboxPath) == ["good-1", "good-2"])
        for entry in scan.quarantined {
            #expect(entry.directory.hasPrefix(fixture.quarantinePath + "/"))
            #expect(try mode(of: entry.directory) == 0o700)
            let record = entry.directory + "/quarantine.json"
            #expect(try mode(of: record) == 0o600)
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: record)))
            let object = try #require(json as? [String: String])
            #expect(
                object == ["original_id": entry.id, "quarantined_at": utc(fixture.clock.now), "reason": entry.reason])
        }
        // The symbolic link was never followed, and stays a link in quarantine.
        #expect(FileManager.default.contents(atPath: outside) == Data([9, 9, 9, 9]))
        #expect(try mode(of: fixture.quarantinePath + "/stray.txt/stray.txt") == 0o600)

        // A second scan lists the same quarantine and moves nothing more.
        let again = try fixture.inbox.scan()
        #expect(again.entries.map(\.id) == ["good-1", "good-2"])
        #expect(Set(again.quarantined) == Set(scan.quarantined))

        // Dropping quarantined entries removes them, and never what a link pointed to.
        #expect(try fixture.inbox.drop(id: "linked"))
        #expect(try fixture.inbox.drop(id: "stray.txt"))
        #expect(FileManager.default.contents(atPath: outside) == Data([9, 9, 9, 9]))
        #expect(try fixture.inbox.scan().quarantined.count == expected.count - 2)
    }

    @Test("the same id quarantined twice keeps both; drop by folder name or by original id")
    func quarantineTwice() throws {
        let fixture = try InboxFixture()
        defer { fixture.remove() }
        try fixture.plantEntry(name: "twice", manifestJSON: nil)
        _ = try fixture.inbox.scan()
        try fixture.plantEntry(name: "twice", manifestJSON: "[]")
        let scan = try fixture.inbox.scan()
        #expect(
            scan.quarantined.map(\.directory) == [
                fixture.quarantinePath + "/twice", fixture.quarantinePath + "/twice.1",
            ])
        #expect(
            scan.quarantined.map(\.reason) == [
                "manifest.json is missing", "manifest.json is not valid: it is not a JSON object",
            ])
        #expect(try fixture.inbox.drop(id: "twice.1"))
        #expect(try fixture.inbox.scan().quarantined.map(\.directory) == [fixture.quarantinePath + "/twice"])
        try fixture.plantEntry(name: "twice", manifestJSON: nil)
        #expect(try fixture.inbox.scan().quarantined.count == 2)
        // By the original id: every copy.
        #expect(try fixture.inbox.drop(id: "twice"))
        #expect(try fixture.inbox.scan().quarantined.isEmpty)
        #expect(try !fixture.inbox.drop(id: "twice"))
    }

    @Test("lock on a corrupt entry quarantines it and says why; quarantine(id:) moves a good entry on request")
    func lockAndExplicitQuarantine() throws {
        let fixture = try InboxFixture()
        defer { fixture.remove() }
        var wrong = fixture.manifest(id: "wrong-size", files: [("1-a.bin", [1])])
        wrong.attachments[0].size = 10
        try fixture.plantEntry(name: "wrong-size", manifestJSON: try fixture.json(wrong), files: [("1-a.bin", [1])])
        #expect(
            throws: InboxError.quarantined(
                id: "wrong-size", reason: "the attachment \"1-a.bin\" has 1 bytes, the manifest says 10")
        ) {
            _ = try fixture.inbox.lock(id: "wrong-size", wait: true)
        }
        #expect(!exists(fixture.inboxPath + "/wrong-size"))

        try fixture.commitEntry(id: "refused")
        let moved = try fixture.inbox.quarantine(id: "refused", reason: "the server refused the target")
        #expect(
            moved
                == QuarantinedEntry(
                    id: "refused", directory: fixture.quarantinePath + "/refused",
                    reason: "the server refused the target"))
        #expect(exists(moved.directory + "/manifest.json"))
        #expect(try fixture.inbox.scan().quarantined.map(\.id) == ["refused", "wrong-size"])
        #expect(throws: InboxError.self) { _ = try fixture.inbox.quarantine(id: "nothing", reason: "x") }

        // The holder of an entry's lock may quarantine it; the lock then names no entry.
        try fixture.commitEntry(id: "held")
        let (lock, held) = try fixture.lockFree(id: "held")
        _ = try fixture.inbox.quarantine(id: "held", reason: "the server rejected the content type")
        #expect(throws: InboxError.self) { try fixture.inbox.markProcessed(held, lock: lock) }
        #expect(exists(fixture.quarantinePath + "/held/manifest.json"))
        lock.release()
    }

    @Test("a folder open to other users is quarantined, and its quarantine record is private")
    func foreignPermissions() throws {
        let fixture = try InboxFixture()
        defer { fixture.remove() }
        try fixture.commitEntry(id: "open")
        chmod(fixture.inboxPath + "/open", 0o755)
        let scan = try fixture.inbox.scan()
        #expect(scan.entries.isEmpty)
        let quarantined = try #require(scan.quarantined.first)
        #expect(quarantined.reason.contains("mode 755"))
        #expect(try mode(of: quarantined.directory) == 0o700)
        #expect(try mode(of: quarantined.directory + "/quarantine.json") == 0o600)
    }
}

/// A time as RFC 3339 UTC, formatted independently of the inbox's code.
private func utc(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: date)
}
