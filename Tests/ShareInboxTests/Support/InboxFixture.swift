import Foundation
import ShareKitCore
import ShareKitCoreTesting
import ShareKitInbox
import ShareKitInboxInterface
import ShareKitSharedState
import ShareKitSystemTesting
import ShareKitTestSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fresh shared container with its inbox, a clock the test moves, and
/// ways to put good and broken entries on disk.
struct InboxFixture {
    /// The start of a test's clock: now, to the second (files' modification
    /// times, which the inbox compares with the clock, come from the real one).
    static var start: Date { Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)) }

    let temporary: TemporaryDirectory
    let container: SharedContainerDirectory
    let clock: TestClock
    let inbox: FileShareInbox

    var inboxPath: String { container.inboxPath }
    var quarantinePath: String { inboxPath + "/.quarantine" }
    var stagingPath: String { inboxPath + "/.staging" }

    init(maximumAge: Duration = .seconds(7 * 24 * 3600)) throws {
        temporary = try TemporaryDirectory(prefix: "sharekit-inbox")
        container = try SharedContainerDirectory(directory: temporary.file("container"))
        let clock = TestClock(Self.start)
        self.clock = clock
        inbox = FileShareInbox(directory: container.inboxPath, maximumAge: maximumAge, clock: { clock.now })
    }

    func remove() { temporary.remove() }

    /// Locks an entry nobody else means to hold, without waiting in
    /// `flock`. Another test of this process may be spawning a helper at
    /// the moment our own lock is let go: between its fork and its exec the
    /// child holds a copy of every descriptor, close-on-exec ones included,
    /// and with it our folder's lock, for a few milliseconds. So a `nil`
    /// from `lock(wait: false)` is asked again for up to ten seconds; a lock
    /// that is really kept (by a bug) still fails the test.
    /// - Throws: what ``FileShareInbox/lock(id:wait:)`` throws, or a failed
    ///   expectation when the entry stays busy or is gone.
    func lockFree(id: String) throws -> (any InboxEntryLock, InboxEntry) {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            if let held = try inbox.lock(id: id, wait: false) { return held }
            guard ContinuousClock.now < deadline else {
                throw InboxFixtureError.stillBusy(id)
            }
            usleep(1000)
        }
    }

    /// A manifest with one attachment per file, created at the clock's time.
    func manifest(id: String, files: [(name: String, bytes: [UInt8])] = [], comment: String = "have a look")
        -> InboxManifest
    {
        InboxManifest(
            clientMsgID: id, serverOrigin: "http://127.0.0.1:8080",
            target: ShareTarget(kind: .thread, id: "t1", displayPath: "server > Gateway > resume the gateway"),
            comment: comment, createdAt: clock.now.formatted(Date.ISO8601FormatStyle()),
            attachments: files.map {
                InboxAttachment(
                    file: $0.name, fileName: $0.name, contentType: "application/octet-stream",
                    size: Int64($0.bytes.count))
            })
    }

    /// Writes an entry the way a sender does (draft, files, commit) and
    /// releases it.
    @discardableResult
    func commitEntry(id: String, files: [(name: String, bytes: [UInt8])] = [("1-a.txt", Array("alex".utf8))]) throws
        -> InboxEntry
    {
        let draft = try inbox.makeDraft(id: id)
        defer { draft.release() }
        for file in files { try write(file.bytes, to: draft.directory + "/" + file.name) }
        return try inbox.commit(draft, manifest: manifest(id: id, files: files))
    }

    /// Writes a folder straight into the inbox, bypassing the draft, the
    /// way a foreign or broken writer would.
    func plantEntry(name: String, manifestJSON: String?, files: [(name: String, bytes: [UInt8])] = []) throws {
        let folder = inboxPath + "/" + name
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        if let manifestJSON { try write(Array(manifestJSON.utf8), to: folder + "/manifest.json") }
        for file in files { try write(file.bytes, to: folder + "/" + file.name) }
    }

    /// A manifest's JSON, as the inbox writes it.
    func json(_ manifest: InboxManifest) throws -> String {
        String(decoding: try InboxManifestCodec.encode(manifest), as: UTF8.self)
    }

    /// Writes a private (0600) file.
    func write(_ bytes: [UInt8], to path: String) throws {
        guard
            FileManager.default.createFile(atPath: path, contents: Data(bytes), attributes: [.posixPermissions: 0o600])
        else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
    }

    /// The visible names in a folder, sorted.
    func names(in path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }
}

/// A file's permission bits, without following a symbolic link.
func mode(of path: String) throws -> UInt32 {
    var info = stat()
    guard lstat(path, &info) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    return UInt32(info.st_mode) & 0o7777
}

/// Whether something is at `path` (a dangling symbolic link counts).
func exists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
}

/// Why a fixture step could not be done.
enum InboxFixtureError: Error, CustomStringConvertible {
    /// The entry stayed locked or missing for the whole wait.
    case stillBusy(String)

    var description: String {
        switch self {
        case .stillBusy(let id): "entry \(id) stayed busy or missing for ten seconds"
        }
    }
}
