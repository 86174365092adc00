import Foundation
import ShareKitCore
public import ShareKitInboxInterface
import ShareKitSecureFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `quarantine.json` beside a quarantined entry.
struct QuarantineRecord: Codable {
    /// Why it was moved aside.
    var reason: String
    /// When (RFC 3339 UTC).
    var quarantinedAt: String
    /// The name it had in the inbox.
    var originalID: String

    private enum CodingKeys: String, CodingKey {
        case reason
        case quarantinedAt = "quarantined_at"
        case originalID = "original_id"
    }

    static let fileName = "quarantine.json"
}

extension FileShareInbox {
    /// Moves an entry folder, or anything else in the inbox, to
    /// `.quarantine` with a reason. An entry locked by another process is
    /// refused (it is in use); one this process holds is moved, and its lock
    /// then no longer names an inbox entry.
    /// - Returns: where it went and why.
    /// - Throws: ``InboxError/invalidID(_:)`` for a name that is not a plain
    ///   name, ``InboxError/io(path:reason:)`` when there is nothing of that
    ///   name, it is locked elsewhere, or it cannot be moved.
    public func quarantine(id: String, reason: String) throws(InboxError) -> QuarantinedEntry {
        guard EntryName.isPlainFileName(id) else { throw .invalidID(id) }
        let folders = try openFolders()
        let path = entryPath(id)
        guard let info = try DirectoryHandle.status(of: path) else {
            throw .io(path: path, reason: "there is no such entry")
        }
        guard DirectoryHandle.isDirectory(info) else {
            return try quarantineStray(name: id, reason: reason, folders: folders)
        }
        guard let handle = try DirectoryHandle.openFolder(path) else {
            throw .io(path: path, reason: "there is no such entry")
        }
        if !HeldLocks.contains(FileIdentity(info)) {
            guard try handle.lock(wait: false) else {
                throw .io(path: path, reason: "another process holds the entry's lock")
            }
        }
        return try quarantineFolder(name: id, handle: handle, reason: reason, folders: folders)
    }

    /// Moves a folder whose lock the caller holds to `.quarantine/<name>[.<n>]`
    /// and writes its `quarantine.json`.
    func quarantineFolder(
        name: String, handle: DirectoryHandle, reason: String, folders: Folders
    ) throws(InboxError) -> QuarantinedEntry {
        let source = entryPath(name)
        var destination: String?
        for candidate in Self.quarantineNames(for: name) {
            if try DirectoryHandle.move(source, to: quarantinePath + "/" + candidate) {
                destination = candidate
                break
            }
        }
        guard let destination else { throw .io(path: source, reason: "no free name in the quarantine") }
        try DirectoryHandle.sync(directory)
        try DirectoryHandle.sync(quarantinePath)
        // A foreign folder may be open to others; the record must be private.
        handle.restrictToOwner()
        writeRecord(reason: reason, originalID: name, into: destination, folders: folders)
        return QuarantinedEntry(id: name, directory: quarantinePath + "/" + destination, reason: reason)
    }

    /// Moves a file that is not a folder (a stray file, a symbolic link, a
    /// FIFO) into a new folder `.quarantine/<name>[.<n>]/` with its record.
    func quarantineStray(name: String, reason: String, folders: Folders) throws(InboxError) -> QuarantinedEntry {
        var destination: String?
        for candidate in Self.quarantineNames(for: name) {
            let path = quarantinePath + "/" + candidate
            if mkdir(path, 0o700) == 0 {
                destination = candidate
                break
            }
            if errno != EEXIST { throw .system("mkdir", path: path, errno: errno) }
        }
        guard let destination else { throw .io(path: entryPath(name), reason: "no free name in the quarantine") }
        let folder = quarantinePath + "/" + destination
        _ = chmod(folder, 0o700)
        let inner = name == QuarantineRecord.fileName ? "stray-" + name : name
        guard try DirectoryHandle.move(entryPath(name), to: folder + "/" + inner) else {
            throw .io(path: entryPath(name), reason: "it could not be moved to the quarantine")
        }
        try DirectoryHandle.sync(directory)
        try DirectoryHandle.sync(quarantinePath)
        writeRecord(reason: reason, originalID: name, into: destination, folders: folders)
        return QuarantinedEntry(id: name, directory: folder, reason: reason)
    }

    /// Writes `quarantine.json` (0600, atomic). A failure leaves the folder
    /// without its reason; the listing then says so instead of guessing.
    private func writeRecord(reason: String, originalID: String, into folder: String, folders: Folders) {
        let record = QuarantineRecord(reason: reason, quarantinedAt: RFC3339.string(now), originalID: originalID)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let bytes = try? encoder.encode(record),
            let target = try? folders.quarantine.subdirectory(folder, create: false)
        else { return }
        try? target.replaceFile(QuarantineRecord.fileName, with: Array(bytes))
    }

    /// Everything in `.quarantine`, by folder name, with the recorded reasons.
    func quarantinedEntries(folders: Folders) -> [QuarantinedEntry] {
        guard let names = try? folders.quarantine.entryNames() else { return [] }
        return names.filter(EntryName.isPlainFileName).sorted().map { name in
            let path = quarantinePath + "/" + name
            guard let folder = try? folders.quarantine.subdirectory(name, create: false),
                case .bytes(let bytes)? = try? folder.readFile(QuarantineRecord.fileName, limit: 1 << 16),
                let record = try? JSONDecoder().decode(QuarantineRecord.self, from: Data(bytes))
            else {
                return QuarantinedEntry(id: name, directory: path, reason: "the reason was not recorded")
            }
            return QuarantinedEntry(id: record.originalID, directory: path, reason: record.reason)
        }
    }

    /// `<name>`, `<name>.1`, `<name>.2`, …: a name quarantined twice keeps
    /// both copies. Long names are shortened so the suffix fits.
    static func quarantineNames(for name: String) -> [String] {
        var base = name
        while base.utf8.count > 240 { base.removeLast() }
        return [base] + (1..<1000).map { "\(base).\($0)" }
    }

    /// Why something that is not a folder cannot be an entry.
    static func strayReason(_ info: stat) -> String {
        switch UInt32(info.st_mode) & UInt32(S_IFMT) {
        case UInt32(S_IFLNK): return "a symbolic link where an entry folder should be"
        case UInt32(S_IFREG): return "a stray file where an entry folder should be"
        default: return "a special file where an entry folder should be"
        }
    }
}
