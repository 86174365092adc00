import Foundation
import ShareKitCore
import ShareKitInboxInterface
import ShareKitSecureFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The checks an entry passes before anyone may use it. Each failure is a
/// reason to quarantine it; none is an error of the caller's operation.
enum EntryValidator {
    /// The manifest name inside an entry folder.
    static let manifestName = "manifest.json"

    /// Reads and checks a whole entry: its name, its manifest, its files.
    /// - Parameters:
    ///   - name: the folder's name in the inbox.
    ///   - folder: the folder's descriptor (held locked by the caller).
    ///   - inbox: the inbox folder.
    /// - Returns: the manifest.
    /// - Throws: ``ShareKitInboxInterface/InboxError/unusable(reason:)`` with the reason.
    static func validate(name: String, folder: DirectoryHandle, inbox: SecureDirectory) throws(InboxError)
        -> InboxManifest
    {
        guard EntryName.isValidID(name) else {
            throw InboxError.unusable(reason: "the folder name is not an entry id (1 to 64 of A-Z a-z 0-9 _ -)")
        }
        let manifest = try readManifest(name: name, inbox: inbox)
        try checkContents(of: manifest, id: name, folder: folder)
        return manifest
    }

    /// Reads an entry's manifest (not its files).
    /// - Throws: ``ShareKitInboxInterface/InboxError/unusable(reason:)`` when the folder or the manifest is unusable.
    static func readManifest(name: String, inbox: SecureDirectory) throws(InboxError) -> InboxManifest {
        let contents: SecureDirectory.FileContents
        do {
            guard let entry = try inbox.subdirectory(name, create: false) else {
                throw InboxError.unusable(reason: "the folder disappeared")
            }
            contents = try entry.readFile(manifestName, limit: InboxManifestCodec.maximumSize)
        } catch let error as SecureFileError {
            switch error {
            case .wrongFileType(let path, _) where path.hasSuffix("/" + manifestName):
                throw InboxError.unusable(
                    reason: "manifest.json is not a regular file (symbolic links are not followed)")
            default:
                throw InboxError.unusable(reason: "it cannot be read safely: \(error)")
            }
        } catch {
            throw error as? InboxError ?? InboxError.unusable(reason: "it cannot be read: \(error)")
        }
        switch contents {
        case .missing:
            throw InboxError.unusable(reason: "manifest.json is missing")
        case .tooLarge:
            throw InboxError.unusable(reason: "manifest.json is larger than \(InboxManifestCodec.maximumSize) bytes")
        case .bytes(let bytes):
            do {
                return try InboxManifestCodec.decode(bytes)
            } catch .manifestNewerFormat(let version) {
                throw InboxError.unusable(reason: "written by a newer ShareKit (format \(version))")
            } catch {
                throw InboxError.unusable(reason: "manifest.json is not valid: \(error)")
            }
        }
    }

    /// ``checkContents(of:id:folder:)`` for an operation of the caller (a
    /// commit, an update), whose failure is the caller's error.
    /// - Throws: ``InboxError/io(path:reason:)`` naming `path` and the problem.
    static func requireContents(
        of manifest: InboxManifest, id: String, folder: DirectoryHandle, path: String
    ) throws(InboxError) {
        do {
            try checkContents(of: manifest, id: id, folder: folder)
        } catch {
            throw .io(path: path, reason: error.description)
        }
    }

    /// Checks a manifest against its folder: the id, the time, and every
    /// attachment a plain, regular file of the recorded size. Files are
    /// examined relative to the folder's descriptor and never followed.
    /// - Throws: ``ShareKitInboxInterface/InboxError/unusable(reason:)`` with the first thing wrong.
    static func checkContents(of manifest: InboxManifest, id: String, folder: DirectoryHandle) throws(InboxError) {
        guard manifest.clientMsgID == id else {
            throw InboxError.unusable(reason: "its client_msg_id does not match the folder name")
        }
        guard RFC3339.date(manifest.createdAt) != nil else {
            throw InboxError.unusable(reason: "created_at is not an RFC 3339 time")
        }
        for attachment in manifest.attachments {
            let name = String(reflecting: attachment.file)
            guard EntryName.isPlainFileName(attachment.file) else {
                throw InboxError.unusable(
                    reason: "the attachment file name \(name) is not a plain name inside the entry")
            }
            let found: stat?
            do {
                found = try folder.status(ofFile: attachment.file)
            } catch {
                throw InboxError.unusable(reason: "the attachment \(name) cannot be examined: \(error)")
            }
            guard let info = found else { throw InboxError.unusable(reason: "the attachment \(name) is missing") }
            switch UInt32(info.st_mode) & UInt32(S_IFMT) {
            case UInt32(S_IFREG): break
            case UInt32(S_IFLNK): throw InboxError.unusable(reason: "the attachment \(name) is a symbolic link")
            default: throw InboxError.unusable(reason: "the attachment \(name) is not a regular file")
            }
            guard Int64(info.st_size) == attachment.size else {
                throw InboxError.unusable(
                    reason: "the attachment \(name) has \(info.st_size) bytes, the manifest says \(attachment.size)")
            }
        }
    }
}
