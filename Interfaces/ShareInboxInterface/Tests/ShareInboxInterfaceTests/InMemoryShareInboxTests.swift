import Foundation
import ShareKitCore
import ShareKitInboxInterface
import ShareKitInboxInterfaceTesting
import Testing

/// The fake inbox keeps entries, locks and quarantine as documented.
@Suite("InMemoryShareInbox: drafts, locks, quarantine and scripted failures")
struct InMemoryShareInboxTests {
    static func manifest(_ id: String) -> InboxManifest {
        InboxManifest(
            clientMsgID: id, serverOrigin: "https://chat.example",
            target: ShareTarget(kind: .thread, id: "t", displayPath: "Lab > chat > t"), comment: "hi",
            createdAt: "2026-01-01T00:00:00Z")
    }

    func root() throws -> String {
        let path = NSTemporaryDirectory() + "inbox-fake-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("a committed draft is held until released; then it can be locked once, updated and completed")
    func lifecycle() throws {
        let root = try root()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let inbox = InMemoryShareInbox(filesRoot: root)
        let draft = try inbox.makeDraft(id: "a")
        #expect(FileManager.default.fileExists(atPath: draft.directory))
        #expect(throws: InboxError.exists("a")) { _ = try inbox.makeDraft(id: "a") }
        #expect(throws: InboxError.invalidID("../x")) { _ = try inbox.makeDraft(id: "../x") }
        _ = try inbox.commit(draft, manifest: Self.manifest("a"))
        #expect(try inbox.scan().entries.map(\.isLocked) == [true])
        #expect(try inbox.lock(id: "a", wait: true) == nil)
        draft.release()
        let (lock, entry) = try #require(try inbox.lock(id: "a", wait: false))
        #expect(try inbox.lock(id: "a", wait: false) == nil)
        var manifest = entry.manifest
        manifest.attempts = 3
        let updated = try inbox.update(entry, manifest: manifest, lock: lock)
        try inbox.markProcessed(updated, lock: lock)
        #expect(try inbox.scan().entries.isEmpty && inbox.processed == ["a"])
        #expect(!FileManager.default.fileExists(atPath: draft.directory))
    }

    @Test("a corrupt entry is quarantined when a batch locks it; a scripted failure hits the next call only")
    func corruptAndFailing() throws {
        let root = try root()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let inbox = InMemoryShareInbox(filesRoot: root)
        for id in ["a", "b"] {
            let draft = try inbox.makeDraft(id: id)
            _ = try inbox.commit(draft, manifest: Self.manifest(id))
            draft.release()
        }
        inbox.corrupt(id: "b", reason: "manifest.json is not valid")
        let batch = try inbox.lockFreeEntries(limit: 10, skipping: [])
        #expect(batch.locked.map(\.entry.id) == ["a"])
        #expect(inbox.quarantined.map(\.reason) == ["manifest.json is not valid"])
        inbox.fail(.markProcessed, with: .io(path: "a", reason: "EIO"))
        #expect(inbox.markProcessed(batch.locked) == [.io(path: "a", reason: "EIO")])
        let again = try #require(try inbox.lock(id: "a", wait: false))
        #expect(throws: Never.self) { try inbox.markProcessed(again.1, lock: again.0) }
    }
}
