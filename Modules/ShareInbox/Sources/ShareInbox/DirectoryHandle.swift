import Foundation
import ShareKitInboxInterface
import ShareKitSecureFiles
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which file a path or a descriptor names: device and inode. A rename keeps
/// it; a folder removed and made again under the same name gets a new one.
struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}

/// An open descriptor of one folder of the inbox (an entry, a draft, a
/// leftover in `.staging`), opened without following a symbolic link.
///
/// The entry lock is an exclusive `flock` on this descriptor: it belongs to
/// the folder's inode, so it moves with the folder through a rename (draft
/// to entry, entry to quarantine) and the kernel drops it when the process
/// dies. Files inside are examined relative to it (`fstatat`), never through
/// a path that a symbolic link could redirect.
final class DirectoryHandle: Sendable {
    /// The raw descriptor; closing it releases the lock.
    let fd: Int32
    /// The path it was opened as (for errors; a rename makes it stale).
    let path: String
    /// The folder's identity once asked for: a descriptor names one inode
    /// for its whole life, so one `fstat` answers every later question.
    private let knownIdentity = Mutex<FileIdentity?>(nil)

    /// Opens a folder.
    /// - Parameter path: the folder.
    /// - Returns: the handle, or nil when there is nothing at `path`.
    /// - Throws: ``InboxError`` when `path` is not a folder (`ENOTDIR`,
    ///   `ELOOP` for a symbolic link) or cannot be opened.
    static func openFolder(_ path: String) throws(InboxError) -> DirectoryHandle? {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw .system("open", path: path, errno: errno)
        }
        return DirectoryHandle(fd: fd, path: path)
    }

    private init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    deinit { close(fd) }

    /// Takes the exclusive lock.
    /// - Parameter wait: wait for another holder, or give up at once.
    /// - Returns: true when held; false only without `wait`, when it is busy.
    /// - Throws: ``InboxError`` when `flock` fails otherwise.
    func lock(wait: Bool) throws(InboxError) -> Bool {
        do throws(SecureFileError) {
            return try FileLock.lock(fd, exclusive: true, wait: wait, path: path)
        } catch {
            throw InboxError(error)
        }
    }

    /// The folder's identity, from the descriptor.
    /// - Throws: ``InboxError`` when `fstat` fails.
    func identity() throws(InboxError) -> FileIdentity {
        if let known = knownIdentity.withLock({ $0 }) { return known }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .system("fstat", path: path, errno: errno) }
        let identity = FileIdentity(info)
        knownIdentity.withLock { $0 = identity }
        return identity
    }

    /// Whether `path` still names this very folder (it may have been
    /// processed, dropped or quarantined while this process waited for the lock).
    func isStill(at path: String) -> Bool {
        guard let identity = try? identity(), let current = try? Self.status(of: path) else { return false }
        return FileIdentity(current) == identity
    }

    /// The status of a file inside the folder, without following a symbolic link.
    /// - Parameter name: a plain file name.
    /// - Returns: its status, or nil when it does not exist.
    /// - Throws: ``InboxError`` when it cannot be examined.
    func status(ofFile name: String) throws(InboxError) -> stat? {
        var info = stat()
        if fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) != 0 {
            if errno == ENOENT { return nil }
            throw .system("stat", path: path + "/" + name, errno: errno)
        }
        return info
    }

    /// Makes the folder owner-only (a foreign entry moved to quarantine, so
    /// its reason can be written next to it). Failures are ignored.
    func restrictToOwner() { _ = fchmod(fd, 0o700) }

    // MARK: - Paths

    /// The status of `path` itself, never following a symbolic link.
    /// - Returns: its status, or nil when nothing is there.
    /// - Throws: ``InboxError`` when it cannot be examined.
    static func status(of path: String) throws(InboxError) -> stat? {
        var info = stat()
        if lstat(path, &info) != 0 {
            if errno == ENOENT { return nil }
            throw .system("stat", path: path, errno: errno)
        }
        return info
    }

    /// When a file was last modified, in seconds since 1970.
    static func modificationTime(_ info: stat) -> Double {
        #if canImport(Darwin)
            Double(info.st_mtimespec.tv_sec)
        #else
            Double(info.st_mtim.tv_sec)
        #endif
    }

    /// Whether a status describes a folder.
    static func isDirectory(_ info: stat) -> Bool { UInt32(info.st_mode) & UInt32(S_IFMT) == UInt32(S_IFDIR) }

    /// Renames, failing when something already has the new name.
    /// - Returns: false when `destination` is taken (nothing was moved).
    /// - Throws: ``InboxError`` for any other failure.
    static func move(_ source: String, to destination: String) throws(InboxError) -> Bool {
        // rename(2) would silently replace an empty folder or a file: look first.
        // Every writer of these names holds the entry's lock, so nobody
        // takes the name between the look and the rename.
        if try status(of: destination) != nil { return false }
        guard rename(source, destination) == 0 else {
            if [EEXIST, ENOTEMPTY, EISDIR, ENOTDIR].contains(errno) { return false }
            throw .system("rename", path: source, errno: errno)
        }
        return true
    }

    /// Flushes a folder's entries (a rename into or out of it) to disk.
    /// - Throws: ``InboxError``.
    static func sync(_ path: String) throws(InboxError) {
        do throws(SecureFileError) {
            try DurableFile.syncDirectory(path)
        } catch {
            throw InboxError(error)
        }
    }

    /// Removes a file or a folder with everything in it. Symbolic links
    /// inside are removed, never followed.
    /// - Throws: ``InboxError`` when something is left.
    static func removeTree(_ path: String) throws(InboxError) {
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            if try status(of: path) == nil { return }
            let code = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.code
            throw .system("remove", path: path, errno: code.map(Int32.init) ?? EIO)
        }
    }
}
