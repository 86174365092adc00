import Foundation
import ShareKitClientTestSupport
import ShareKitCore
import ShareKitCoreTesting
import ShareKitHTTPInterfaceTesting
import ShareKitInbox
import ShareKitInboxInterface
import ShareKitOutbox
import ShareKitOutboxInterface
import ShareKitSQLiteStore
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// The takeover of share inbox entries into a real SQLite outbox: real
/// folders, real locks, helper processes taking over at the same moment.
@Suite("outbox: inbox takeover, exactly once")
struct TakeoverTests {
    /// An inbox and an outbox in a temporary directory (no server).
    final class Fixture: @unchecked Sendable {
        let home: TemporaryDirectory
        let inboxDirectory: String
        let databasePath: String
        let outboxDirectory: String
        let entries: InboxEntries
        let database: SQLiteDatabase
        let outbox: SQLiteOutbox

        init() throws {
            home = try TemporaryDirectory(prefix: "outbox-takeover")
            inboxDirectory = home.file("container/inbox")
            try FileManager.default.createDirectory(
                atPath: inboxDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            databasePath = home.file("daemon.db")
            outboxDirectory = home.file("outbox")
            entries = InboxEntries(inbox: FileShareInbox(directory: inboxDirectory), origin: "http://127.0.0.1:9")
            database = try SQLiteDatabase(path: databasePath)
            outbox = try SQLiteOutbox(database: database, directory: outboxDirectory)
        }

        func takeover() throws -> TakeoverReport { try InboxTakeover(inbox: entries.inbox, outbox: outbox).run() }

        func close() {
            try? database.close()
            home.remove()
        }
    }

    @Test("entries become pending items with their own files; the folders are gone")
    func entriesTakenOver() throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        let text = try fixture.entries.add("just text")
        let one = try fixture.entries.add("a file", files: [.init("a.bin", size: 5000)])
        let two = try fixture.entries.add(
            "two files, one uploaded",
            files: [.init("b.bin", size: 70_000, completedUploadID: "up-1"), .init("c.txt", size: 3)],
            attempts: 2, lastError: "the server could not be reached")
        let report = try fixture.takeover()
        #expect(Set(report.takenOver) == Set([text, one, two].map(\.clientMsgID)))
        #expect(report.skippedLocked.isEmpty && report.alreadyInOutbox.isEmpty && report.quarantined.isEmpty)
        #expect(try fixture.entries.folders().isEmpty)

        let item = try #require(try fixture.outbox.item(try UUIDv7(string: two.clientMsgID)))
        #expect(item.state == .pending && item.text == "two files, one uploaded" && item.target == OutboxFixture.thread)
        #expect(item.attempts == 2 && item.lastError == "the server could not be reached")
        #expect(item.serverOrigin == "http://127.0.0.1:9")
        #expect(item.attachments.map(\.completedUploadID) == ["up-1", nil])
        #expect(item.attachments.map(\.fileName) == ["b.bin", "c.txt"])
        for (attachment, file) in zip(
            item.attachments, [InboxEntries.File("b.bin", size: 70_000), .init("c.txt", size: 3)])
        {
            #expect(attachment.storedPath.hasPrefix(fixture.outboxDirectory + "/files/" + two.clientMsgID + "/"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: attachment.storedPath)) == Data(file.bytes))
            let mode =
                try FileManager.default.attributesOfItem(atPath: attachment.storedPath)[.posixPermissions] as? Int
            #expect(mode.map { $0 & 0o077 } == 0, "the copy is private")
        }
        let folderMode =
            try FileManager.default.attributesOfItem(atPath: fixture.outboxDirectory + "/files")[
                .posixPermissions] as? Int
        #expect(folderMode == 0o700)
        #expect(try fixture.outbox.counts().pending == 3)
    }

    @Test("a second pass adds nothing; an entry already in the outbox is only completed")
    func idempotent() throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        try fixture.entries.add("once")
        #expect(try fixture.takeover().takenOver.count == 1)
        #expect(try fixture.takeover() == TakeoverReport())
        // A takeover died after storing the item and before deleting the folder.
        let id = UUIDv7()
        try fixture.entries.add("stored before the crash", id: id)
        let stored = OutboxItem(
            clientMsgID: id, serverOrigin: "http://127.0.0.1:9", target: OutboxFixture.thread,
            text: "the outbox's copy",
            nextAttemptAt: 0, createdAt: 0)
        #expect(try fixture.outbox.enqueue(stored))
        #expect(try fixture.outbox.enqueue(stored) == false, "enqueue is idempotent")
        let report = try fixture.takeover()
        #expect(report.alreadyInOutbox == [id.description] && report.takenOver.isEmpty)
        #expect(try fixture.entries.folders().isEmpty)
        #expect(try fixture.outbox.item(id)?.text == "the outbox's copy")
        #expect(try fixture.outbox.counts().pending == 2)
    }

    /// With `basicInbox`, the inbox has only the operations every inbox
    /// must have: its batch operations are the protocol's defaults.
    @Test(
        "an entry another process holds is skipped, a corrupt one quarantined, the others taken over",
        arguments: [false, true])
    func lockedAndCorrupt(basicInbox: Bool) throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        let held = try fixture.entries.add("held by a share send at work")
        let free = try fixture.entries.add("free", files: [.init("d.bin", size: 10)])
        let corrupt = fixture.inboxDirectory + "/" + UUIDv7().description
        try FileManager.default.createDirectory(atPath: corrupt, withIntermediateDirectories: false)
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: corrupt + "/manifest.json"))
        let other = FileShareInbox(directory: fixture.inboxDirectory)
        let (lock, _) = try #require(try other.lock(id: held.clientMsgID, wait: false))
        let inbox: any ShareInboxStoring = basicInbox ? BasicInbox(fixture.entries.inbox) : fixture.entries.inbox
        // Batches of one make a pass of several batches.
        func takeover() throws -> TakeoverReport {
            try InboxTakeover(inbox: inbox, outbox: fixture.outbox, batchSize: basicInbox ? 1 : 256).run()
        }
        let report = try takeover()
        #expect(report.takenOver == [free.clientMsgID])
        #expect(report.skippedLocked == [held.clientMsgID])
        #expect(report.quarantined.count == 1 && report.quarantined.first?.reason.isEmpty == false)
        #expect(try fixture.entries.folders() == [held.clientMsgID])
        lock.release()
        let later = try takeover()
        #expect(later.takenOver == [held.clientMsgID])
        #expect(try fixture.outbox.counts().pending == 2)
    }

    @Test("a pass in small batches takes every entry once; one stored before a crash keeps the outbox's files")
    func smallBatches() throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        var ids: Set<String> = []
        for n in 0..<11 {
            let files: [InboxEntries.File] = n % 3 == 0 ? [.init("f\(n).bin", size: 100 + n)] : []
            ids.insert(try fixture.entries.add("entry \(n)", files: files).clientMsgID)
        }
        // A takeover died after storing this one (with its own copy of the file) and before completing it.
        let stored = UUIDv7()
        try fixture.entries.add("stored before the crash", files: [.init("g.bin", size: 10)], id: stored)
        let folder = try fixture.outbox.filesDirectory(for: stored)
        try Data("the outbox's copy".utf8).write(to: URL(fileURLWithPath: folder + "/0-g.bin"))
        let item = OutboxItem(
            clientMsgID: stored, serverOrigin: "http://127.0.0.1:9", target: OutboxFixture.thread,
            text: "stored before the crash",
            attachments: [
                OutboxAttachment(
                    storedPath: folder + "/0-g.bin", fileName: "g.bin", contentType: "application/octet-stream",
                    size: 17)
            ], nextAttemptAt: 0, createdAt: 0)
        #expect(try fixture.outbox.enqueue(item))

        let report = try InboxTakeover(inbox: fixture.entries.inbox, outbox: fixture.outbox, batchSize: 4).run()
        #expect(Set(report.takenOver) == ids && report.takenOver.count == ids.count)
        #expect(report.alreadyInOutbox == [stored.description])
        #expect(report.skippedLocked.isEmpty && report.failed.isEmpty && report.quarantined.isEmpty)
        #expect(try fixture.entries.folders().isEmpty)
        #expect(try String(contentsOfFile: folder + "/0-g.bin", encoding: .utf8) == "the outbox's copy")
        #expect(try fixture.outbox.counts().pending == 12)
        fixture.entries.inbox.waitForRemovals()
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.inboxDirectory + "/.staging").isEmpty)
        #expect(try fixture.takeover() == TakeoverReport())
    }

    @Test("two takeover processes at the same moment: each client_msg_id taken over once")
    func concurrentProcesses() throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        var ids: Set<String> = []
        for n in 0..<40 {
            let files: [InboxEntries.File] = n % 4 == 0 ? [.init("f\(n).bin", size: 2000 + n)] : []
            ids.insert(try fixture.entries.add("entry \(n)", files: files).clientMsgID)
        }
        let helpers = try (0..<2).map { _ in
            try HelperProcess(
                ["outbox-takeover", fixture.inboxDirectory, fixture.databasePath, fixture.outboxDirectory])
        }
        for helper in helpers { #expect(helper.waitForLine { $0 == "ready" } != nil) }
        for helper in helpers { helper.writeLine("go") }
        var takenOver: [String] = []
        for helper in helpers {
            let outcome = helper.finish()
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let data = Data(outcome.stdout.utf8)
            let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            takenOver += report["taken_over"] as? [String] ?? []
            #expect((report["failed"] as? [String])?.isEmpty == true, "\(report)")
        }
        #expect(takenOver.count == ids.count && Set(takenOver) == ids, "each entry once across both processes")
        #expect(try fixture.entries.folders().isEmpty)
        #expect(try fixture.outbox.counts().pending == ids.count)
        #expect(Set(try fixture.outbox.list(states: [.pending]).map(\.clientMsgID.description)) == ids)
    }

    @Test("taken over, then drained: each share once on the server with its client_msg_id and its bytes")
    func takeoverThenDrain() async throws {
        let fixture = try await OutboxFixture()
        defer { fixture.close() }
        let inboxDirectory = fixture.home.file("inbox")
        try FileManager.default.createDirectory(
            atPath: inboxDirectory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let entries = InboxEntries(inbox: FileShareInbox(directory: inboxDirectory), origin: fixture.origin)
        let file = InboxEntries.File("report.bin", size: 50_000, seed: 7)
        let shares = [
            try entries.add("from the inbox"), try entries.add("with a file", files: [file]),
        ]
        let taken = try InboxTakeover(
            inbox: entries.inbox, outbox: fixture.outbox, clock: fixture.clock.millisecondsSource
        ).run()
        #expect(taken.takenOver.count == 2)
        let report = try await fixture.drainer().drainOnce()
        #expect(report.sent == 2 && report.failed == 0 && report.retried == 0)
        let messages = try await fixture.messages()
        for share in shares {
            #expect(messages.filter { $0["client_msg_id"] as? String == share.clientMsgID }.count == 1)
        }
        let withFile = messages.first { $0["client_msg_id"] as? String == shares[1].clientMsgID }
        let sums = (withFile?["attachments"] as? [[String: Any]])?.compactMap { $0["sha256"] as? String }
        let expectedPath = fixture.home.file("expected.bin")
        try Data(file.bytes).write(to: URL(fileURLWithPath: expectedPath))
        #expect(sums == [try fixture.sandbox.sha256Hex(ofFile: expectedPath)])
        #expect(try entries.folders().isEmpty)
        #expect(try fixture.outbox.counts() == OutboxCounts(sent: 2))
    }
}

/// An inbox that has only the operations every inbox must have: the batch
/// operations are the protocol's defaults.
struct BasicInbox: ShareInboxStoring {
    let inbox: FileShareInbox

    init(_ inbox: FileShareInbox) { self.inbox = inbox }

    func makeDraft(id: String) throws(InboxError) -> any InboxDraft { try inbox.makeDraft(id: id) }
    func commit(_ draft: any InboxDraft, manifest: InboxManifest) throws(InboxError) -> InboxEntry {
        try inbox.commit(draft, manifest: manifest)
    }
    func discard(_ draft: any InboxDraft) { inbox.discard(draft) }
    func scan() throws(InboxError) -> InboxScan { try inbox.scan() }
    func lock(id: String, wait: Bool) throws(InboxError) -> (any InboxEntryLock, InboxEntry)? {
        try inbox.lock(id: id, wait: wait)
    }
    func update(_ entry: InboxEntry, manifest: InboxManifest, lock: any InboxEntryLock) throws(InboxError)
        -> InboxEntry
    {
        try inbox.update(entry, manifest: manifest, lock: lock)
    }
    func markProcessed(_ entry: InboxEntry, lock: any InboxEntryLock) throws(InboxError) {
        try inbox.markProcessed(entry, lock: lock)
    }
    func quarantine(id: String, reason: String) throws(InboxError) -> QuarantinedEntry {
        try inbox.quarantine(id: id, reason: reason)
    }
    func drop(id: String) throws(InboxError) -> Bool { try inbox.drop(id: id) }
}
