import Foundation
import ShareKitCore
import ShareKitInboxInterface
import ShareKitInboxInterfaceTesting
import ShareKitOutbox
import ShareKitOutboxInterface
import ShareKitOutboxInterfaceTesting
import ShareKitSystemTesting
import Testing

/// The daemon taking the CLI's shares over: each good entry becomes an
/// outbox item with its own copy of the files, and only then leaves the
/// inbox; a corrupt one is quarantined without stopping the others.
@Suite("InboxTakeover: inbox entries into the outbox")
struct InboxTakeoverTests {
    static let now: Int64 = 1_800_000_000_000

    /// A temporary directory with a fake inbox and a fake outbox, each with its files in a folder of it.
    func places() throws -> (TemporaryDirectory, InMemoryShareInbox, InMemoryOutbox) {
        let temporary = try TemporaryDirectory(prefix: "sharekit-takeover-module")
        for name in ["inbox", "outbox"] {
            try FileManager.default.createDirectory(atPath: temporary.file(name), withIntermediateDirectories: true)
        }
        return (
            temporary, InMemoryShareInbox(filesRoot: temporary.file("inbox")),
            InMemoryOutbox(filesRoot: temporary.file("outbox"))
        )
    }

    func commit(_ inbox: InMemoryShareInbox, id: String, bytes: [UInt8]) throws {
        let draft = try inbox.makeDraft(id: id)
        try Data(bytes).write(to: URL(fileURLWithPath: draft.directory + "/1-a.bin"))
        _ = try inbox.commit(
            draft,
            manifest: InboxManifest(
                clientMsgID: id, serverOrigin: "https://chat.example",
                target: ShareTarget(kind: .thread, id: "t-1", displayPath: "Lab > chat > plans"), comment: "look",
                createdAt: "2027-01-15T08:00:00Z",
                attachments: [
                    InboxAttachment(
                        file: "1-a.bin", fileName: "a.bin", contentType: "application/octet-stream",
                        size: Int64(bytes.count), completedUploadID: "upl-done")
                ]))
        draft.release()
    }

    @Test("good entries become items with copies of their files, then leave the inbox; a corrupt one is quarantined")
    func takeover() throws {
        let (temporary, inbox, outbox) = try places()
        defer { temporary.remove() }
        let first = UUIDv7().description
        let second = UUIDv7().description
        let broken = UUIDv7().description
        try commit(inbox, id: first, bytes: [1, 2, 3])
        try commit(inbox, id: second, bytes: Array(repeating: 7, count: 70_000))
        try commit(inbox, id: broken, bytes: [9])
        inbox.corrupt(id: broken, reason: "manifest.json is not valid")

        let report = try InboxTakeover(inbox: inbox, outbox: outbox, clock: { Self.now }, batchSize: 1).run()
        #expect(Set(report.takenOver) == [first, second])
        #expect(report.quarantined.map(\.id) == [broken] && report.failed.isEmpty)
        #expect(Set(inbox.processed) == [first, second])
        #expect(try inbox.scan().entries.isEmpty)

        let item = try #require(try outbox.item(UUIDv7(string: second)))
        #expect(item.state == .pending && item.nextAttemptAt <= Self.now && item.text == "look")
        #expect(item.attachments.first?.completedUploadID == "upl-done")
        let stored = try #require(item.attachments.first?.storedPath)
        #expect(stored.hasPrefix(temporary.file("outbox")))
        #expect(FileManager.default.contents(atPath: stored) == Data(repeating: 7, count: 70_000))
        #expect(try outbox.counts().pending == 2)
    }

    @Test("an entry already in the outbox is only completed; one the queue cannot take stays in the inbox")
    func alreadyQueuedAndFailingQueue() throws {
        let (temporary, inbox, outbox) = try places()
        defer { temporary.remove() }
        let id = UUIDv7()
        try outbox.enqueue(
            OutboxItem(
                clientMsgID: id, serverOrigin: "https://chat.example",
                target: ShareTarget(kind: .thread, id: "t-1", displayPath: "x"), text: "earlier", nextAttemptAt: 0,
                createdAt: Self.now))
        try commit(inbox, id: id.description, bytes: [1])
        let report = try InboxTakeover(inbox: inbox, outbox: outbox, clock: { Self.now }).run()
        #expect(report.alreadyInOutbox == [id.description] && report.takenOver.isEmpty)
        #expect(inbox.processed == [id.description])
        #expect(try outbox.item(id)?.text == "earlier")

        let other = UUIDv7().description
        try commit(inbox, id: other, bytes: [2])
        outbox.fail(.enqueue, with: .storage("database is locked"))
        let failed = try InboxTakeover(inbox: inbox, outbox: outbox, clock: { Self.now }).run()
        #expect(failed.takenOver.isEmpty && failed.failed.map(\.id) == [other])
        #expect(try inbox.scan().entries.map(\.id) == [other])
    }
}
