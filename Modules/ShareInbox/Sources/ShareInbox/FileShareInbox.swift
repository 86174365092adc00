public import Foundation
import ShareKitCore
public import ShareKitInboxInterface
import ShareKitSecureFiles
import Synchronization

/// The write-ahead share inbox as folders in the shared container.
///
/// ```
/// inbox/                          0700  (SharedContainer.inboxPath)
///   <id>/                         0700  an entry, named by its client_msg_id
///     manifest.json               0600  InboxManifestCodec, sorted keys
///     1-report.pdf                      the attachments, plain names
///   .staging/                     0700  drafts <id>.<random>/, removals <id>.done.<random>/ and removed+<random>/
///   .quarantine/                  0700  <id>[.<n>]/ with quarantine.json {original_id, quarantined_at, reason}
/// ```
///
/// An entry appears by one rename of its finished draft, so no reader ever
/// sees it half-written; it disappears by one rename into `.staging`, and is
/// deleted from there. Its lock is an exclusive `flock` on the entry folder
/// itself (``FileEntryLock``), which the rename keeps and the kernel drops
/// when the holder dies. Nothing found on disk crashes or stops a scan:
/// entries that are wrong in any way are moved to `.quarantine` with a
/// reason, one at a time.
public struct FileShareInbox: ShareInboxStoring {
    /// How long a draft still under its creation name (`<id>.<random>.new`,
    /// made but not yet locked) may sit unlocked in `.staging` before a scan
    /// takes it for the remains of a writer killed in that instant. A draft
    /// under its own name is locked from the moment it has that name, so an
    /// unlocked one is a dead writer's and goes at the next scan. Drafts
    /// were never visible entries, so nothing is reported for them.
    public static let abandonedDraftAge: Duration = .seconds(60)

    /// The suffix of a draft folder between `mkdir` and its lock.
    static let creatingSuffix = ".new"

    /// The inbox folder (``SharedContainer``'s `inboxPath`).
    public let directory: String
    /// Entries older than this are reported in ``InboxScan/stale``.
    public let maximumAge: Duration
    /// Entries whose files hold at least this many bytes leave the inbox in
    /// ``markProcessed(_:lock:)`` as any other, but their folder is left in
    /// `.staging` for ``removeLeftovers()`` (or a later scan) to delete;
    /// nil deletes every entry at once. Deleting a file of gigabytes takes
    /// about a second on some file systems (blocks freed and discarded),
    /// which `share send` need not wait for before it answers.
    public let deferredRemovalBytes: Int64?
    /// How many removals ``markProcessed(_:lock:)`` left in `.staging`
    /// through this value (and its copies).
    private let leftRemovals = LeftRemovals()
    private let clock: @Sendable () -> Date

    /// Makes an inbox over a folder; the folder and its `.staging` and
    /// `.quarantine` are made 0700 on first use.
    /// - Parameters:
    ///   - directory: the inbox folder, e.g. `<container>/inbox`.
    ///   - maximumAge: the age past which an entry is reported as stale.
    ///   - clock: the current time (tests move it).
    public init(
        directory: String, maximumAge: Duration = .seconds(7 * 24 * 3600),
        clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.init(directory: directory, maximumAge: maximumAge, deferredRemovalBytes: nil, clock: clock)
    }

    /// Makes an inbox that leaves the deletion of large completed entries
    /// for later (``deferredRemovalBytes``).
    /// - Parameters:
    ///   - directory: the inbox folder, e.g. `<container>/inbox`.
    ///   - maximumAge: the age past which an entry is reported as stale.
    ///   - deferredRemovalBytes: entries of at least this many bytes are
    ///     deleted by ``removeLeftovers()``; nil deletes every entry at once.
    ///   - clock: the current time (tests move it).
    public init(
        directory: String, maximumAge: Duration = .seconds(7 * 24 * 3600), deferredRemovalBytes: Int64?,
        clock: @escaping @Sendable () -> Date = Date.init
    ) {
        var trimmed = directory
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.directory = trimmed
        self.maximumAge = maximumAge
        self.deferredRemovalBytes = deferredRemovalBytes
        self.clock = clock
    }

    /// How many completed entries ``markProcessed(_:lock:)`` left in
    /// `.staging` instead of deleting them (``deferredRemovalBytes``).
    public var removalsLeft: Int { leftRemovals.count }

    // MARK: - Paths

    var stagingPath: String { directory + "/.staging" }
    var quarantinePath: String { directory + "/.quarantine" }
    func entryPath(_ name: String) -> String { directory + "/" + name }

    /// The inbox folder and its two private folders, made when missing and
    /// checked (owner only, not a symbolic link).
    struct Folders {
        let inbox: SecureDirectory
        let staging: SecureDirectory
        let quarantine: SecureDirectory
    }

    /// Opens (making them) the inbox, `.staging` and `.quarantine`.
    /// - Throws: ``InboxError`` when one of them is unsafe or cannot be made.
    func openFolders() throws(InboxError) -> Folders {
        do {
            guard let inbox = try SecureDirectory.openBase(directory, create: true),
                let staging = try inbox.subdirectory(".staging", create: true),
                let quarantine = try inbox.subdirectory(".quarantine", create: true)
            else { throw InboxError.io(path: directory, reason: "the inbox folder could not be made") }
            return Folders(inbox: inbox, staging: staging, quarantine: quarantine)
        } catch let error as SecureFileError {
            throw InboxError(error)
        } catch {
            throw error as? InboxError ?? .io(path: directory, reason: "\(error)")
        }
    }

    /// An entry value for a manifest found valid.
    func entry(_ manifest: InboxManifest, isLocked: Bool) -> InboxEntry {
        let created = RFC3339.date(manifest.createdAt) ?? clock()
        // Never negative: a clock set back makes an entry new, not older than the universe.
        let age = max(0, Int64(clock().timeIntervalSince(created).rounded(.down)))
        return InboxEntry(
            id: manifest.clientMsgID, directory: entryPath(manifest.clientMsgID), manifest: manifest,
            ageSeconds: age, isLocked: isLocked)
    }

    /// The current time, for quarantine records and ages.
    var now: Date { clock() }

    // MARK: - Drafts

    /// Starts a new entry: makes `.staging/<id>.<random>/` (0700) and locks it
    /// before anything is written into it.
    /// - Parameter id: the share's `client_msg_id`.
    /// - Returns: a ``FileInboxDraft``.
    /// - Throws: ``InboxError/invalidID(_:)``, or ``InboxError/io(path:reason:)``
    ///   and ``InboxError/noSpace(path:)`` when the folder cannot be made.
    public func makeDraft(id: String) throws(InboxError) -> any InboxDraft {
        guard EntryName.isValidID(id) else { throw .invalidID(id) }
        let folders = try openFolders()
        let name = id + "." + EntryName.uniqueSuffix()
        let path = stagingPath + "/" + name
        // Made under a creation name, locked, then renamed (the lock is on
        // the folder itself and moves with it): a scan that finds a draft
        // under its own name unlocked knows its writer is dead.
        let creatingName = name + Self.creatingSuffix
        let creating = stagingPath + "/" + creatingName
        do {
            // No fsync of the staging folder: a draft's name need not survive
            // a crash (nothing is kept until the commit), and the commit makes
            // the entry durable (its manifest and folder fsynced, then the
            // rename into the inbox and an fsync of the inbox).
            _ = try folders.staging.subdirectory(creatingName, create: true, durable: false)
        } catch {
            throw InboxError(error)
        }
        guard let handle = try DirectoryHandle.openFolder(creating) else {
            throw .io(path: creating, reason: "the draft folder vanished as it was made")
        }
        _ = try handle.lock(wait: true)
        guard try DirectoryHandle.move(creating, to: path) else {
            throw .io(path: path, reason: "a draft of that name exists already")
        }
        return FileInboxDraft(name: name, directory: path, lock: try FileEntryLock(id: id, locked: handle))
    }

    /// Writes `manifest.json` into the draft (temporary file, fsync, rename,
    /// fsync of the folder), then renames the draft to `<inbox>/<id>` and
    /// fsyncs the inbox. The files are checked first, so an entry that
    /// appears is one a scan accepts. The draft's lock stays held.
    /// - Returns: the new entry (not locked by anyone else).
    /// - Throws: ``InboxError/exists(_:)`` when the inbox has the id already,
    ///   ``InboxError/invalidID(_:)`` when the manifest names another id,
    ///   ``InboxError/io(path:reason:)`` for a draft this inbox did not make,
    ///   a file that does not match the manifest or a failed write,
    ///   ``InboxError/noSpace(path:)``.
    public func commit(_ draft: any InboxDraft, manifest: InboxManifest) throws(InboxError) -> InboxEntry {
        guard let draft = draft as? FileInboxDraft, !draft.isCommitted else {
            throw .io(path: draft.directory, reason: "not an open draft of this inbox")
        }
        guard manifest.clientMsgID == draft.id else { throw .invalidID(manifest.clientMsgID) }
        let folders = try openFolders()
        let checked: Void? = try draft.lock.withHandle { folder throws(InboxError) in
            try EntryValidator.requireContents(of: manifest, id: draft.id, folder: folder, path: draft.directory)
        }
        guard checked != nil else { throw .io(path: draft.directory, reason: "the draft was released") }
        let bytes = try encode(manifest)
        do {
            guard let staged = try folders.staging.subdirectory(draft.name, create: false) else {
                throw InboxError.io(path: draft.directory, reason: "the draft folder is gone")
            }
            try staged.replaceFile(EntryValidator.manifestName, with: bytes)
        } catch let error as SecureFileError {
            throw InboxError(error)
        } catch {
            throw error as? InboxError ?? .io(path: draft.directory, reason: "\(error)")
        }
        guard try DirectoryHandle.move(draft.directory, to: entryPath(draft.id)) else { throw .exists(draft.id) }
        draft.markCommitted()
        try DirectoryHandle.sync(directory)
        try DirectoryHandle.sync(stagingPath)
        return entry(manifest, isLocked: false)
    }

    /// Removes an uncommitted draft and releases it; for a committed one
    /// (now an entry) it only releases the lock.
    public func discard(_ draft: any InboxDraft) {
        defer { draft.release() }
        guard let draft = draft as? FileInboxDraft, !draft.isCommitted else { return }
        try? DirectoryHandle.removeTree(draft.directory)
    }

    // MARK: - Locks

    /// Takes an entry's lock, then reads and checks the entry under it.
    ///
    /// After the lock is taken, the folder must still be the one at
    /// `<inbox>/<id>`: another process may have processed it (or quarantined
    /// it) while this one waited. A lock this process already holds is never
    /// waited for (it would never end): the answer is nil.
    /// - Returns: the lock and the entry, or nil when it is busy (`wait == false`),
    ///   held by this process, or gone.
    /// - Throws: ``InboxError/quarantined(id:reason:)`` when the entry was
    ///   unusable (it has been moved to quarantine), ``InboxError/invalidID(_:)``,
    ///   ``InboxError/io(path:reason:)``.
    public func lock(id: String, wait: Bool) throws(InboxError) -> (any InboxEntryLock, InboxEntry)? {
        guard EntryName.isValidID(id) else { throw .invalidID(id) }
        return try lockFolder(id, wait: wait, folders: try openFolders())
    }

    /// ``lock(id:wait:)`` with the inbox's folders already open.
    func lockFolder(_ id: String, wait: Bool, folders: Folders) throws(InboxError) -> (FileEntryLock, InboxEntry)? {
        let path = entryPath(id)
        // A folder replaced under the same name while we waited is a new
        // entry: try that one (a few times; a name that keeps changing is busy).
        for _ in 0..<8 {
            guard let info = try DirectoryHandle.status(of: path) else { return nil }
            guard DirectoryHandle.isDirectory(info) else {
                let moved = try quarantineStray(name: id, reason: Self.strayReason(info), folders: folders)
                throw .quarantined(id: id, reason: moved.reason)
            }
            if HeldLocks.contains(FileIdentity(info)) { return nil }
            guard let handle = try DirectoryHandle.openFolder(path) else { return nil }
            guard try handle.lock(wait: wait) else { return nil }
            guard handle.isStill(at: path) else { continue }
            let manifest: InboxManifest
            do {
                manifest = try EntryValidator.validate(name: id, folder: handle, inbox: folders.inbox)
            } catch {
                let moved = try quarantineFolder(name: id, handle: handle, reason: error.description, folders: folders)
                throw .quarantined(id: id, reason: moved.reason)
            }
            return (try FileEntryLock(id: id, locked: handle), entry(manifest, isLocked: false))
        }
        return nil
    }

    /// The inbox's own lock for `entry`, still held on the folder at its path.
    /// - Throws: ``InboxError/io(path:reason:)`` when `lock` is not such a lock.
    func heldLock(_ lock: any InboxEntryLock, for entry: InboxEntry) throws(InboxError) -> FileEntryLock {
        let path = entryPath(entry.id)
        let fileLock = (lock as? FileEntryLock) ?? (lock as? FileInboxDraft)?.lock
        guard let fileLock, fileLock.id == entry.id, fileLock.isHeld(at: path) else {
            throw .io(
                path: path, reason: "the entry's lock is not held (it was released, or the entry was moved or removed)")
        }
        return fileLock
    }

    // MARK: - Changes

    /// Replaces the manifest of a locked entry (temporary file, fsync,
    /// rename, fsync of the folder). The new manifest is checked against the
    /// folder first, so the entry stays one a scan accepts.
    /// - Returns: the entry with the new manifest.
    /// - Throws: ``InboxError/io(path:reason:)`` when the lock is not held or
    ///   the manifest does not match the files, ``InboxError/invalidID(_:)``
    ///   when it names another id, ``InboxError/noSpace(path:)``.
    public func update(_ entry: InboxEntry, manifest: InboxManifest, lock: any InboxEntryLock) throws(InboxError)
        -> InboxEntry
    {
        let fileLock = try heldLock(lock, for: entry)
        guard manifest.clientMsgID == entry.id else { throw .invalidID(manifest.clientMsgID) }
        let path = entryPath(entry.id)
        _ = try fileLock.withHandle { folder throws(InboxError) in
            try EntryValidator.requireContents(of: manifest, id: entry.id, folder: folder, path: path)
        }
        let bytes = try encode(manifest)
        let folders = try openFolders()
        do {
            guard let folder = try folders.inbox.subdirectory(entry.id, create: false) else {
                throw InboxError.io(path: path, reason: "the entry is gone")
            }
            // A writer killed mid-update left its temporary; we hold the lock, so it is stale.
            folder.removeStaleTemporaryFiles(of: EntryValidator.manifestName)
            try folder.replaceFile(EntryValidator.manifestName, with: bytes)
        } catch let error as SecureFileError {
            throw InboxError(error)
        } catch {
            throw error as? InboxError ?? .io(path: path, reason: "\(error)")
        }
        return self.entry(manifest, isLocked: false)
    }

    /// Explicit completion: renames the entry to `.staging/<id>.done.<random>`
    /// (it leaves the inbox in one step), deletes it from there and releases
    /// the lock. A deletion cut short is finished by a later scan.
    /// - Throws: ``InboxError/io(path:reason:)`` when the lock is not held or
    ///   the entry cannot be moved.
    public func markProcessed(_ entry: InboxEntry, lock: any InboxEntryLock) throws(InboxError) {
        let fileLock = try heldLock(lock, for: entry)
        _ = try openFolders()
        // The hold ends as soon as the folder has left the inbox (nobody can
        // reach it by its name any more), before it is deleted: a folder
        // created meanwhile may get the deleted one's inode, and must not be
        // taken for one this process still holds.
        let bytes = entry.manifest.attachments.reduce(Int64(0)) { $0 + max(0, $1.size) }
        let later = deferredRemovalBytes.map { bytes >= $0 } ?? false
        try remove(entryPath(entry.id), id: entry.id, deleting: !later, moved: { fileLock.release() })
        if later { leftRemovals.add() }
    }

    /// Moves a locked entry folder out of the inbox into `.staging` and
    /// deletes it there.
    /// - Parameters:
    ///   - path: the entry's folder.
    ///   - id: the entry's id.
    ///   - deleting: false leaves the moved folder for a later
    ///     ``removeLeftovers()`` or scan.
    ///   - moved: called once the folder has left the inbox, before it is deleted.
    func remove(_ path: String, id: String, deleting: Bool = true, moved: () -> Void = {}) throws(InboxError) {
        let removal = stagingPath + "/" + id + ".done." + EntryName.uniqueSuffix()
        guard try DirectoryHandle.move(path, to: removal) else {
            throw .io(path: path, reason: "it could not be moved out of the inbox")
        }
        moved()
        // No fsync: an entry that reappears after a power loss is harmless
        // (the outbox already holds its id, or the server answers a resend
        // as a replay), and two flushes per entry were most of the cost of
        // taking a thousand entries over (ADR 0006).
        // The entry has left the inbox; what remains is cleaned up by a later scan if need be.
        if deleting { try? DirectoryHandle.removeTree(removal) }
    }

    /// Deletes an entry (`share inbox drop`): waits for its lock unless this
    /// process holds it, then removes it like ``markProcessed(_:lock:)``.
    /// Without such an entry, removes from quarantine every folder of that
    /// name (`<id>.1`) or with that original id.
    /// - Returns: false when nothing had that id.
    /// - Throws: ``InboxError/invalidID(_:)`` for a name that is not a plain
    ///   name, ``InboxError/io(path:reason:)``.
    public func drop(id: String) throws(InboxError) -> Bool {
        guard EntryName.isPlainFileName(id) else { throw .invalidID(id) }
        let folders = try openFolders()
        let path = entryPath(id)
        for _ in 0..<8 {
            guard let info = try DirectoryHandle.status(of: path) else { break }
            guard DirectoryHandle.isDirectory(info) else {
                try DirectoryHandle.removeTree(path)
                try DirectoryHandle.sync(directory)
                return true
            }
            guard let handle = try DirectoryHandle.openFolder(path) else { break }
            if !HeldLocks.contains(FileIdentity(info)) {
                _ = try handle.lock(wait: true)
                guard handle.isStill(at: path) else { continue }
            }
            try remove(path, id: id)
            return true
        }
        let matches = quarantinedEntries(folders: folders).filter {
            $0.id == id || $0.directory == quarantinePath + "/" + id
        }
        for match in matches {
            try DirectoryHandle.removeTree(match.directory)
        }
        if !matches.isEmpty { try DirectoryHandle.sync(quarantinePath) }
        return !matches.isEmpty
    }

    /// The manifest's bytes for disk.
    private func encode(_ manifest: InboxManifest) throws(InboxError) -> [UInt8] {
        do {
            return try InboxManifestCodec.encode(manifest)
        } catch {
            throw .io(path: entryPath(manifest.clientMsgID), reason: "the manifest \(error)")
        }
    }
}

/// A count shared by the copies of one ``FileShareInbox`` (a struct): the
/// removals ``FileShareInbox/markProcessed(_:lock:)`` left for later.
final class LeftRemovals: Sendable {
    private let value = Mutex(0)

    /// The removals left so far.
    var count: Int { value.withLock { $0 } }

    /// Counts one more.
    func add() { value.withLock { $0 += 1 } }
}
