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

/// Taking many entries at once, as the daemon's takeover does: locking a
/// batch with one read per entry, completing it with one rename per entry
/// and deleting the folders in the background.
@Suite("inbox: batches of entries")
struct InboxBatchTests {
    @Test("lockFreeEntries locks free entries in id order up to the limit, leaves held ones, quarantines broken ones")
    func locksABatch() throws {
        let fixture = try InboxFixture()
        defer { fixture.remove() }
        for id in ["a", "b", "c", "d"] { try fixture.commitEntry(id: id) }
        try fixture.plantEntry(name: "e", manifestJSON: "{not json")
        let holder = try HelperProcess(["inbox-lock", "--dir", fixture.inboxPath, "--id", "b"])
        defer {
            holder.kill(SIGKILL)
            _ = holder.finish()
        }
        #expect(holder.readLine() == "locked")

        let first = try fixture.inbox.lockFreeEntries(limit: 2, skipping: [])
        #expect(first.locked.map(\.entry.id) == ["a", "c"])
        #expect(first.locked.allSatisfy { $0.entry.manifest.clientMsgID == $0.entry.id && !$0.entry.isLocked })
        #expect(first.busy == ["b"])
        #expect(first.failed.isEmpty && first.quarantined.isEmpty, "the limit was reached before e")
        // Held by this process now: nobody else gets them, not even another lock call here.
        #expect(try fixture.inbox.lock(id: "a", wait: false) == nil)

        let second = try fixture.inbox.lockFreeEntries(limit: 2, skipping: ["a", "b", "c"])
        #expect(second.locked.map(\.entry.id) == ["d"])
        #expect(second.busy.isEmpty)
        #expect(second.quarantined.map(\.id) == ["e"])
        #expect(second.quarantined.first?.reason.contains("manifest.json") == true)

        for locked in first.locked + second.locked { locked.lock.release() }
        let (lock, _) = try #require(try fixture.inbox.lock(id: "a", wait: false))
        lock.release()
    }

    @Test("a completed batch leaves the inbox in the call; waitForRemovals leaves nothing in .staging")
    func completesABatch() throws {
        let fixture = try InboxFixture()
        defer { fixture.remove() }
        let ids = (0..<40).map { String(format: "entry-%02d", $0) }
        for id in ids { try fixture.commitEntry(id: id, files: [("1-a.bin", Array(id.utf8))]) }
        try fixture.commitEntry(id: "stays")
        // Another link to one entry's file, as the outbox keeps when it takes a file over.
        let kept = fixture.temporary.file("kept.bin")
        #expect(link(fixture.inboxPath + "/entry-07/1-a.bin", kept) == 0)

        let batch = try fixture.inbox.lockFreeEntries(limit: 40, skipping: [])
        #expect(batch.locked.map(\.entry.id) == ids)
        let results = fixture.inbox.markProcessed(batch.locked)
        #expect(results.count == ids.count && results.allSatisfy { $0 == nil })
        // Gone from the inbox at once, whatever the background deletion has done so far.
        #expect(fixture.names(in: fixture.inboxPath) == ["stays"])
        #expect(try fixture.inbox.scan().entries.map(\.id) == ["stays"])
        #expect(try fixture.inbox.lock(id: "entry-00", wait: false) == nil)

        fixture.inbox.waitForRemovals()
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.stagingPath).isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: kept)) == Data("entry-07".utf8))
    }

    @Test("an entry whose lock is not held any more is not completed, the others are")
    func completesOnlyHeldEntries() throws {
        let fixture = try InboxFixture()
        defer { fixture.remove() }
        for id in ["a", "b", "c"] { try fixture.commitEntry(id: id) }
        let batch = try fixture.inbox.lockFreeEntries(limit: 10, skipping: [])
        batch.locked[1].lock.release()
        let results = fixture.inbox.markProcessed(batch.locked)
        #expect(results[0] == nil && results[2] == nil)
        #expect(results[1] != nil)
        #expect(fixture.names(in: fixture.inboxPath) == ["b"])
        fixture.inbox.waitForRemovals()
    }

    @Test("a removal folder held by its deleter is left alone by a scan, and removed once nobody holds it")
    func removalFolderOfADeadProcess() throws {
        let fixture = try InboxFixture()
        defer { fixture.remove() }
        try fixture.commitEntry(id: "a")
        _ = try fixture.inbox.scan()
        // What a process killed while deleting a batch leaves: a removal folder with entries in it.
        let removal = fixture.stagingPath + "/removed+1234abcd"
        try FileManager.default.createDirectory(
            atPath: removal + "/x", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try fixture.write(Array("{}".utf8), to: removal + "/x/manifest.json")
        let holder = open(removal, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        #expect(holder >= 0 && flock(holder, LOCK_EX) == 0)

        _ = try fixture.inbox.scan()
        #expect(exists(removal + "/x/manifest.json"), "its deleter still holds it")
        close(holder)
        #expect(try fixture.inbox.scan().entries.map(\.id) == ["a"])
        #expect(!exists(removal))
    }

    @Test(
        "a batch's removal folder left under its creation name goes at the next scan; a draft's creation name waits its minute"
    )
    func removalFolderKilledBeforeItsLock() throws {
        let fixture = try InboxFixture()
        defer { fixture.remove() }
        try fixture.commitEntry(id: "a")
        // A process killed between the mkdir of its removal folder and the
        // lock leaves the creation name; so does a writer killed between the
        // mkdir of its draft and the lock, even one of the id "removed".
        let removal = fixture.stagingPath + "/removed+1234abcd.new"
        let draft = fixture.stagingPath + "/removed.1234abcd.new"
        #expect(mkdir(removal, 0o700) == 0 && mkdir(draft, 0o700) == 0)

        #expect(try fixture.inbox.scan().entries.map(\.id) == ["a"])
        #expect(!exists(removal), "nothing of the batch is in it yet: no grace")
        #expect(exists(draft), "its writer may be between mkdir and its lock")

        // The batch path makes its own removal folder and completes the entry.
        let batch = try fixture.inbox.lockFreeEntries(limit: 10, skipping: [])
        #expect(fixture.inbox.markProcessed(batch.locked) == [nil])
        fixture.inbox.waitForRemovals()
        #expect(fixture.names(in: fixture.inboxPath).isEmpty)
        #expect(fixture.names(in: fixture.stagingPath) == ["removed.1234abcd.new"])
    }
}
