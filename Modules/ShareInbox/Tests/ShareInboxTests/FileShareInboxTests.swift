import Foundation
import ShareKitCore
import ShareKitInbox
import ShareKitInboxInterface
import ShareKitSystemTesting
import Synchronization
import Testing

/// The inbox's clock, moved by the test.
final class Clock: Sendable {
    let now: Mutex<Date>
    init(_ start: Date) { now = Mutex(start) }
}

/// A share inbox in a fresh temporary directory, with a clock the test moves.
struct Inbox {
    let temporary: TemporaryDirectory
    let clock: Clock
    let inbox: FileShareInbox
    var path: String { temporary.file("inbox") }

    init(maximumAge: Duration = .seconds(7 * 24 * 3600), deferredRemovalBytes: Int64? = nil) throws {
        temporary = try TemporaryDirectory(prefix: "sharekit-inbox-module")
        let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let clock = Clock(start)
        self.clock = clock
        inbox = FileShareInbox(
            directory: temporary.file("inbox"), maximumAge: maximumAge, deferredRemovalBytes: deferredRemovalBytes,
            clock: { clock.now.withLock { $0 } })
    }

    func advance(seconds: Double) { clock.now.withLock { $0 += seconds } }

    func manifest(id: String, file: (name: String, size: Int64)? = ("1-a.bin", 3)) -> InboxManifest {
        InboxManifest(
            clientMsgID: id, serverOrigin: "https://chat.example",
            target: ShareTarget(kind: .thread, id: "t1", displayPath: "Lab > chat > plans"), comment: "have a look",
            createdAt: clock.now.withLock { $0 }.formatted(Date.ISO8601FormatStyle()),
            attachments: file.map {
                [
                    InboxAttachment(
                        file: $0.name, fileName: "a.bin", contentType: "application/octet-stream", size: $0.size)
                ]
            } ?? [])
    }

    /// Writes an entry as a sender does: draft, its file, commit, release.
    @discardableResult
    func commit(id: String, bytes: [UInt8] = [1, 2, 3]) throws -> InboxEntry {
        let draft = try inbox.makeDraft(id: id)
        try Data(bytes).write(to: URL(fileURLWithPath: draft.directory + "/1-a.bin"))
        let entry = try inbox.commit(draft, manifest: manifest(id: id, file: ("1-a.bin", Int64(bytes.count))))
        draft.release()
        return entry
    }
}

func mode(of path: String) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? -1) & 0o777
}

/// What a sender and the daemon see of ``FileShareInbox`` on disk.
@Suite("FileShareInbox: drafts, commits, scans, quarantine and completion")
struct FileShareInboxTests {
    @Test("a draft is invisible until committed; the entry is listed with its manifest, folders 0700, files 0600")
    func roundTrip() throws {
        let fixture = try Inbox()
        defer { fixture.temporary.remove() }
        let draft = try fixture.inbox.makeDraft(id: "share-1")
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: draft.directory + "/1-a.bin"))
        #expect(try fixture.inbox.scan().entries.isEmpty)
        let manifest = fixture.manifest(id: "share-1")
        let entry = try fixture.inbox.commit(draft, manifest: manifest)
        draft.release()
        fixture.advance(seconds: 90)
        let scan = try fixture.inbox.scan()
        let listed = try #require(scan.entries.first)
        #expect(scan.entries.count == 1 && listed.id == "share-1" && listed.manifest == manifest)
        #expect(listed.ageSeconds == 90 && !listed.isLocked)
        #expect(
            FileManager.default.contents(atPath: listed.path(of: listed.manifest.attachments[0])) == Data([1, 2, 3]))
        #expect(try mode(of: fixture.path) == 0o700 && mode(of: entry.directory) == 0o700)
        #expect(try mode(of: entry.directory + "/manifest.json") == 0o600)
    }

    @Test("ids that could leave the inbox are refused; a second entry with an id is refused")
    func hostileIDs() throws {
        let fixture = try Inbox()
        defer { fixture.temporary.remove() }
        for bad in ["", "../x", "a/b", ".hidden", "x y", String(repeating: "a", count: 65)] {
            #expect(throws: InboxError.invalidID(bad)) { _ = try fixture.inbox.makeDraft(id: bad) }
        }
        #expect(throws: InboxError.invalidID("../x")) { _ = try fixture.inbox.drop(id: "../x") }
        try fixture.commit(id: "once")
        #expect(throws: InboxError.self) { try fixture.commit(id: "once") }
        #expect(try fixture.inbox.scan().entries.map(\.id) == ["once"])
    }

    @Test("a commit whose file does not match the manifest is refused and nothing appears")
    func commitChecksFiles() throws {
        let fixture = try Inbox()
        defer { fixture.temporary.remove() }
        let draft = try fixture.inbox.makeDraft(id: "short")
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: draft.directory + "/1-a.bin"))
        #expect {
            _ = try fixture.inbox.commit(draft, manifest: fixture.manifest(id: "short", file: ("1-a.bin", 4)))
        } throws: { error in
            "\(error)".contains("has 3 bytes, the manifest says 4")
        }
        fixture.inbox.discard(draft)
        #expect(try fixture.inbox.scan().entries.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: draft.directory))
    }

    @Test("a corrupt manifest is quarantined with its reason; the good entries are still listed")
    func quarantine() throws {
        let fixture = try Inbox()
        defer { fixture.temporary.remove() }
        try fixture.commit(id: "good")
        let broken = try fixture.commit(id: "broken")
        try Data("{\"format_version\": 1, \"client_msg_id\": ".utf8).write(
            to: URL(fileURLWithPath: broken.directory + "/manifest.json"))
        let scan = try fixture.inbox.scan()
        #expect(scan.entries.map(\.id) == ["good"])
        #expect(scan.quarantined.map(\.id) == ["broken"])
        #expect(scan.quarantined.first?.reason.contains("not a JSON object") == true)
        #expect(!FileManager.default.fileExists(atPath: broken.directory))
    }

    @Test("update keeps the new manifest; markProcessed removes the entry; stale entries are reported, not removed")
    func updateCompleteAndStale() throws {
        let fixture = try Inbox(maximumAge: .seconds(3600))
        defer { fixture.temporary.remove() }
        try fixture.commit(id: "old")
        fixture.advance(seconds: 3601)
        try fixture.commit(id: "new")
        #expect(try fixture.inbox.scan().stale == ["old"])

        let (lock, entry) = try #require(try fixture.inbox.lock(id: "new", wait: false))
        var manifest = entry.manifest
        manifest.attachments[0].completedUploadID = "upl_1"
        manifest.attempts = 2
        let updated = try fixture.inbox.update(entry, manifest: manifest, lock: lock)
        #expect(updated.manifest.attachments[0].completedUploadID == "upl_1")
        try fixture.inbox.markProcessed(updated, lock: lock)
        lock.release()
        fixture.inbox.waitForRemovals()
        #expect(try fixture.inbox.scan().entries.map(\.id) == ["old"])
        #expect(!FileManager.default.fileExists(atPath: entry.directory))
        #expect(try fixture.inbox.drop(id: "old"))
        #expect(try fixture.inbox.drop(id: "old") == false)
    }

    @Test("a large completed entry leaves the inbox at once and is deleted by removeLeftovers; a small one at once")
    func deferredRemoval() throws {
        let fixture = try Inbox(deferredRemovalBytes: 8)
        defer { fixture.temporary.remove() }
        let big = try fixture.commit(id: "big", bytes: Array(repeating: 7, count: 10))
        let small = try fixture.commit(id: "small", bytes: [1, 2, 3])
        for id in ["big", "small"] {
            let (lock, entry) = try #require(try fixture.inbox.lock(id: id, wait: false))
            try fixture.inbox.markProcessed(entry, lock: lock)
            lock.release()
        }
        // A share being written meanwhile: its draft is held, and stays.
        let draft = try fixture.inbox.makeDraft(id: "writing")
        defer { draft.release() }
        let staging = fixture.path + "/.staging"
        func left() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: staging).filter { $0.contains(".done.") }
        }
        #expect(!FileManager.default.fileExists(atPath: big.directory), "the large entry left the inbox")
        #expect(!FileManager.default.fileExists(atPath: small.directory))
        let leftovers = try left()
        #expect(leftovers.count == 1 && leftovers.first?.hasPrefix("big.done.") == true, "\(leftovers)")
        #expect(fixture.inbox.removalsLeft == 1)

        #expect(try fixture.inbox.removeLeftovers() == 1)
        #expect(try left().isEmpty)
        #expect(FileManager.default.fileExists(atPath: draft.directory), "a held draft is not a leftover")
        #expect(try fixture.inbox.removeLeftovers() == 0)
        #expect(try fixture.inbox.scan().entries.isEmpty)
    }
}
