import Foundation
import ShareKitCoreTesting
import ShareKitInbox
import ShareKitInboxInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

@Suite("inbox: drafts, commits, scans and completion")
struct InboxRoundTripTests {
    @Test("a committed draft is listed with its manifest and files; folders are 0700, files 0600")
    func roundTrip() throws {
        let fixture = try InboxFixture()
        defer { fixture.remove() }
        let id = "0193a6b2-7c1d-7e00-8000-000000000001"
        let files: [(name: String, bytes: [UInt8])] = [("1-report.pdf", Array(repeating: 7, count: 5000))]
        let draft = try fixture.inbox.makeDraft(id: id)
        #expect(draft.directory.hasPrefix(fixture.stagingPath + "/" + id + "."))
        try fixture.write(files[0].bytes, to: draft.directory + "/1-report.pdf")
        // Not visible before the commit.
        #expect(try fixture.inbox.scan().entries.isEmpty)

        let manifest = fixture.manifest(id: id, files: files)
        let entry = try fixture.inbox.commit(draft, manifest: manifest)
        draft.release()
        #expect(entry.directory == fixture.inboxPath + "/" + id)
        #expect(fixture.names(in: fixture.stagingPath).isEmpty)

        fixture.clock.advance(seconds: 90)
        let scan = try fixture.inbox.scan()
        #expect(scan.quarantined.isEmpty && scan.stale.isEmpty)
        #expect(scan.entries.count == 1)
        let listed = try #require(scan.entries.first)
        #expect(listed.id == id && listed.manifest == manifest && !listed.isLocked)
        #expect(listed.ageSeconds == 90)
        #expect(FileManager.default.contents(atPath: listed.path(of: manifest.attachments[0])) == Data(files[0].bytes))

        for folder in [fixture.inboxPath, fixture.stagingPath, fixture.quarantinePath, entry.directory] {
            #expect(try mode(of: folder) == 0o700, "\(folder)")
        }
        #expect(try mode(of: entry.directory + "/manifest.json") == 0o600)
        // Only the manifest and the attachment: no temporary left behind.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: entry.directory).sorted() == [
                "1-report.pdf", "manifest.json",
            ])
    }

    @Test("ids that could escape the inbox or are too long are refused; a second entry with an id is refused")
    func idsAndDuplicates() throws {
        let fixture = try InboxFixture()
        defer { fixture.remove() }
        for bad in ["", "../x", "a/b", ".hidden", "a.b", "x y", String(repeating: "a", count: 65)] {
            #expect(throws: InboxError.invalidID(bad)) { _ = try fixture.inbox.makeDraft(id: bad) }
        }
        #expect(throws: InboxError.invalidID("../x")) { _ = try fixture.inbox.lock(id: "../x", wait: false) }
        #expect(throws: InboxError.invalidID("../x")) { _ = try fixture.inbox.drop(id: "../x") }
        _ = try fixture.inbox.makeDraft(id: String(repeating: "a", count: 64))

        try fixture.commitEntry(id: "share-1")
        let again = try fixture.inbox.makeDraft(id: "share-1")
        #expect(throws: InboxError.exists("share-1")) {
            _ = try fixture.inbox.commit(again, manifest: fixture.manifest(id: "share-1"))
        }
        // A manifest naming another id is refused.
        let other = try fixture.inbox.makeDraft(id: "share-2")
        #expect(throws: InboxError.invalidID("share-3")) {
            _ = try fixture.inbox.commit(other, manifest: fixture.manifest(id: "share-3"))
        }
        fixture.inbox.discard(again)
        fixture.inbox.discard(other)
        #expect(fixture.names(in: fixture.stagingPath).filter { $0.hasPrefix("share-") }.isEmpty)
        #expect(try fixture.inbox.scan().entries.map(\.id) == ["share-1"])
    }

    @Test("a commit whose files do not match the manifest is refused and nothing appears")
    func commitChecksFiles() throws {
        let fixture = try InboxFixture()
        defer { fixture.remove() }
        let draft = try fixture.inbox.makeDraft(id: "short")
        try fixture.write([1, 2, 3], to: draft.directory + "/1-a.bin")
        var manifest = fixture.manifest(id: "short", files: [("1-a.bin", [1, 2, 3])])
        manifest.attachments[0].size = 4
        #expect {
            _ = try fixture.inbox.commit(draft, manifest: manifest)
        } throws: { error in
            "\(error)".contains("has 3 bytes, the manifest says 4")
        }
        #expect(try fixture.inbox.scan().entries.isEmpty)
        fixture.inbox.discard(draft)
        #expect(!exists(draft.directory))
    }

    @Test("update replaces the manifest under the held lock; markProcessed removes the entry")
    func updateAndComplete() throws {
        let fixture = try InboxFixture()
        defer { fixture.remove() }
        let files: [(name: String, bytes: [UInt8])] = [("1-a.bin", [1, 2, 3])]
        let draft = try fixture.inbox.makeDraft(id: "sent")
        try fixture.write(files[0].bytes, to: draft.directory + "/1-a.bin")
        let entry = try fixture.inbox.commit(draft, manifest: fixture.manifest(id: "sent", files: files))

        // The committed entry is still locked by the draft.
        #expect(try fixture.inbox.lock(id: "sent", wait: false) == nil)
        #expect(try fixture.inbox.scan().entries.first?.isLocked == true)

        var manifest = entry.manifest
        manifest.attachments[0].completedUploadID = "upl_1"
        manifest.attempts = 2
        manifest.lastError = "the server could not be reached"
        // A manifest that no longer matches the files is refused; the entry keeps the old one.
        var wrong = manifest
        wrong.attachments[0].file = "../1-a.bin"
        #expect(throws: InboxError.self) { _ = try fixture.inbox.update(entry, manifest: wrong, lock: draft) }
        let updated = try fixture.inbox.update(entry, manifest: manifest, lock: draft)
        #expect(updated.manifest.attachments[0].completedUploadID == "upl_1")
        #expect(try fixture.inbox.lock(id: "sent", wait: false) == nil)
        #expect(try mode(of: entry.directory + "/manifest.json") == 0o600)

        draft.release()
        let (lock, reread) = try fixture.lockFree(id: "sent")
        #expect(reread.manifest == manifest)
        // A released lock cannot be used for changes.
        draft.release()
        #expect(throws: InboxError.self) { _ = try fixture.inbox.update(reread, manifest: manifest, lock: draft) }

        try fixture.inbox.markProcessed(reread, lock: lock)
        #expect(!exists(entry.directory))
        let scan = try fixture.inbox.scan()
        #expect(scan.entries.isEmpty && scan.quarantined.isEmpty)
        #expect(fixture.names(in: fixture.stagingPath).isEmpty)
        #expect(try fixture.inbox.lock(id: "sent", wait: true) == nil)
    }

    @Test("entries older than the maximum age are reported as stale, oldest first, and kept")
    func staleEntries() throws {
        let fixture = try InboxFixture(maximumAge: .seconds(3600))
        defer { fixture.remove() }
        try fixture.commitEntry(id: "old")
        fixture.clock.advance(seconds: 1800)
        try fixture.commitEntry(id: "new")
        fixture.clock.advance(seconds: 1801)

        let scan = try fixture.inbox.scan()
        #expect(scan.entries.map(\.id) == ["old", "new"])
        #expect(scan.entries.map(\.ageSeconds) == [3601, 1801])
        #expect(scan.stale == ["old"])
        // Reported, never removed.
        fixture.clock.advance(seconds: 3600)
        #expect(try fixture.inbox.scan().stale == ["old", "new"])
        #expect(fixture.names(in: fixture.inboxPath) == ["new", "old"])
    }

    @Test("drop removes an entry, waiting for nobody when this process holds it")
    func dropEntry() throws {
        let fixture = try InboxFixture()
        defer { fixture.remove() }
        try fixture.commitEntry(id: "drop-me")
        #expect(try fixture.inbox.drop(id: "drop-me"))
        #expect(!exists(fixture.inboxPath + "/drop-me"))
        #expect(try !fixture.inbox.drop(id: "drop-me"))

        try fixture.commitEntry(id: "held")
        let (lock, _) = try fixture.lockFree(id: "held")
        // This process holds the lock: waiting for it would never end.
        #expect(try fixture.inbox.lock(id: "held", wait: true) == nil)
        #expect(try fixture.inbox.drop(id: "held"))
        #expect(try fixture.inbox.scan().entries.isEmpty)
        lock.release()
    }
}
