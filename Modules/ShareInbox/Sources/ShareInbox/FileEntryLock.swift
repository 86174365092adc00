import Glibc
public import ShareKitInboxInterface
import Synchronization

/// The hold on one entry folder: an exclusive `flock` on a descriptor of
/// the folder itself (see ``DirectoryHandle``). It follows the folder
/// through renames, ends with ``release()`` or `deinit`, and the kernel ends
/// it when the process dies, so a killed `share` never blocks the daemon.
public final class FileEntryLock: InboxEntryLock {
    /// The entry's id.
    public let id: String
    /// The locked folder's identity (device and inode).
    let identity: FileIdentity
    /// The locked descriptor; nil once released (closing it let the lock go).
    private let handle: Mutex<DirectoryHandle?>
    /// The descriptor's number, for the registry of held locks.
    private let descriptor: Int32

    /// Wraps a descriptor this process has just locked.
    /// - Parameters:
    ///   - id: the entry's id.
    ///   - handle: the folder's descriptor, locked exclusively.
    /// - Throws: ``InboxError`` when the folder cannot be examined.
    init(id: String, locked handle: DirectoryHandle) throws(InboxError) {
        self.id = id
        identity = try handle.identity()
        self.handle = Mutex(handle)
        descriptor = handle.fd
        HeldLocks.add(identity, descriptor: handle.fd)
    }

    deinit { release() }

    /// Gives the hold up (closes the descriptor); idempotent.
    public func release() {
        handle.withLock { held in
            guard held != nil else { return }
            // Out of the registry before the descriptor closes, so its number
            // is never checked after the kernel may have reused it.
            HeldLocks.remove(identity, descriptor: descriptor)
            held = nil
        }
    }

    /// Whether this hold is still on and `path` names the locked folder
    /// (not released, not moved away or replaced since).
    func isHeld(at path: String) -> Bool {
        handle.withLock { held in held?.isStill(at: path) ?? false }
    }

    /// Runs `body` with the locked descriptor.
    /// - Returns: what `body` returns, or nil when the lock was released.
    func withHandle<T>(_ body: (DirectoryHandle) throws(InboxError) -> T) throws(InboxError) -> T? {
        try handle.withLock { held throws(InboxError) -> T? in
            guard let held else { return nil }
            return try body(held)
        }
    }
}

/// A draft of ``FileShareInbox``: a staging folder, `<inbox>/.staging/<id>.<random>`,
/// locked before anything is written into it. After a commit it is the lock
/// of the new entry (the rename kept the folder and its lock).
public final class FileInboxDraft: InboxDraft {
    /// The entry's id.
    public var id: String { lock.id }
    /// The staging folder: copy the attachments here before the commit.
    public let directory: String
    /// The staging folder's name inside `.staging`.
    let name: String
    /// The hold on the folder.
    let lock: FileEntryLock
    /// Whether the draft became an entry (``FileShareInbox/discard(_:)`` then only releases).
    private let committed = Mutex(false)

    init(name: String, directory: String, lock: FileEntryLock) {
        self.name = name
        self.directory = directory
        self.lock = lock
    }

    /// Gives the hold up; idempotent. A committed entry then becomes free
    /// for the daemon; an uncommitted draft stays invisible until a scan
    /// removes it as abandoned.
    public func release() { lock.release() }

    /// Whether the draft was committed.
    var isCommitted: Bool { committed.withLock { $0 } }

    /// Records the commit.
    func markCommitted() { committed.withLock { $0 = true } }
}

/// The entry folders this process holds locks on. `flock` makes a second
/// descriptor of the same process wait like any other process would, so an
/// operation that would wait for a lock this process holds itself
/// (``FileShareInbox/drop(id:)`` while the caller holds the entry) must
/// know, or it would wait forever.
///
/// A folder's identity (device and inode) is only unique while the folder
/// exists: once a held folder is deleted, a new folder may get its inode. So
/// an identity counts as held only while one of its held descriptors still
/// names a folder that exists (a link count above zero).
enum HeldLocks {
    private static let held = Mutex<[FileIdentity: [Int32]]>([:])

    static func add(_ identity: FileIdentity, descriptor: Int32) {
        held.withLock { $0[identity, default: []].append(descriptor) }
    }

    static func remove(_ identity: FileIdentity, descriptor: Int32) {
        held.withLock { table in
            var descriptors = table[identity] ?? []
            if let index = descriptors.firstIndex(of: descriptor) { descriptors.remove(at: index) }
            table[identity] = descriptors.isEmpty ? nil : descriptors
        }
    }

    static func contains(_ identity: FileIdentity) -> Bool {
        held.withLock { table in
            (table[identity] ?? []).contains { descriptor in
                var info = stat()
                return fstat(descriptor, &info) == 0 && info.st_nlink > 0
            }
        }
    }
}
