import Foundation
import ShareKitCore
public import ShareKitCryptoInterface
import ShareKitSecureFiles
public import ShareKitUploadsInterface
import ShareKitWireContract

/// Upload records as JSON files in a directory of their own (0700, files
/// 0600), one per server and file path, replaced atomically under a lock
/// so that another process (the daemon, the CLI run again) can resume.
///
/// A file's name is the SHA-256 of the server origin and the path, so paths
/// never appear in names. A record is handed out only while the file's
/// identity (path, size, mtime) still matches; a stale one is removed.
public final class FileUploadRecordStore: UploadRecordStore {
    private static let lockName = "records.lock"
    private static let maxRecordBytes = 4 * 1024 * 1024

    private let directoryPath: String
    private let crypto: any CryptoProvider

    /// Makes a store in `directory` (made on first write).
    /// - Parameters:
    ///   - directory: the directory for the records.
    ///   - crypto: SHA-256 for the file names.
    public init(directory: String, crypto: any CryptoProvider) {
        directoryPath = directory
        self.crypto = crypto
    }

    public func record(for identity: UploadFileIdentity, serverOrigin: String) throws(UploadRecordStoreError)
        -> UploadRecord?
    {
        let name = try fileName(path: identity.path, serverOrigin: serverOrigin)
        return try withDirectory { directory in
            guard case .bytes(let bytes) = try directory.readFile(name, limit: Self.maxRecordBytes) else { return nil }
            guard let record = try? JSONDecoder().decode(UploadRecord.self, from: Data(bytes)),
                record.identity == identity, record.serverOrigin == serverOrigin,
                record.partDigests.count == record.partsCount,
                // A record is a file anyone with the user's rights could have
                // written: its numbers must describe this file before any
                // part offset is computed from them.
                UploadParts.count(size: identity.size, partSize: record.partSize) == record.partsCount,
                // The digest's form is one this client sends: nil (the plain SHA-256) or the composite.
                record.digestAlgorithm == nil || record.digestAlgorithm == UploadDigestAlgorithm.sha256Composite
            else {
                try directory.removeFile(name)
                return nil
            }
            return record
        }
    }

    public func save(_ record: UploadRecord) throws(UploadRecordStoreError) {
        let name = try fileName(path: record.identity.path, serverOrigin: record.serverOrigin)
        let bytes: [UInt8]
        do {
            bytes = Array(try JSONEncoder().encode(record))
        } catch {
            throw UploadRecordStoreError("cannot encode the upload record: \(error)")
        }
        try withDirectory { directory in try directory.replaceFile(name, with: bytes) }
    }

    public func removeRecord(path: String, serverOrigin: String) throws(UploadRecordStoreError) {
        let name = try fileName(path: path, serverOrigin: serverOrigin)
        try withDirectory { directory in try directory.removeFile(name) }
    }

    public func lastPartSize(serverOrigin: String) -> Int64? {
        guard let name = try? partSizeFileName(serverOrigin),
            let contents = try? withDirectory({ directory in try directory.readFile(name, limit: 64) }),
            case .bytes(let bytes) = contents, let size = Int64(String(decoding: bytes, as: UTF8.self)), size > 0
        else { return nil }
        return size
    }

    public func rememberPartSize(_ partSize: Int64, serverOrigin: String) {
        guard lastPartSize(serverOrigin: serverOrigin) != partSize, let name = try? partSizeFileName(serverOrigin)
        else { return }
        try? withDirectory { directory in try directory.replaceFile(name, with: Array(String(partSize).utf8)) }
    }

    private func partSizeFileName(_ serverOrigin: String) throws(UploadRecordStoreError) -> String {
        do {
            return "part-size-" + Hex.encode(try crypto.sha256(contentsOf: Array(serverOrigin.utf8)))
        } catch {
            throw UploadRecordStoreError("cannot name the part size file: \(error)")
        }
    }

    /// Removes the records of files that no longer exist: a share whose
    /// upload was interrupted and whose inbox entry was then taken over (its
    /// files moved into the daemon's outbox) leaves a record nobody can
    /// resume. Their unfinished uploads expire on the server.
    /// - Returns: how many records were removed.
    /// - Throws: ``ShareKitUploadsInterface/UploadRecordStoreError`` when the directory cannot be read.
    @discardableResult
    public func pruneRecordsOfMissingFiles() throws(UploadRecordStoreError) -> Int {
        try withDirectory { directory in
            var removed = 0
            for name in try directory.entryNames() where name.hasPrefix("upload-") && name.hasSuffix(".json") {
                guard case .bytes(let bytes) = try directory.readFile(name, limit: Self.maxRecordBytes) else {
                    continue
                }
                guard let record = try? JSONDecoder().decode(UploadRecord.self, from: Data(bytes)) else {
                    try directory.removeFile(name)
                    removed += 1
                    continue
                }
                var info = stat()
                if lstat(record.identity.path, &info) != 0, errno == ENOENT {
                    try directory.removeFile(name)
                    removed += 1
                }
            }
            return removed
        }
    }

    private func fileName(path: String, serverOrigin: String) throws(UploadRecordStoreError) -> String {
        do {
            return "upload-" + Hex.encode(try crypto.sha256(contentsOf: Array((serverOrigin + "\n" + path).utf8)))
                + ".json"
        } catch {
            throw UploadRecordStoreError("cannot name the upload record: \(error)")
        }
    }

    private func withDirectory<T>(_ body: (SecureDirectory) throws -> T) throws(UploadRecordStoreError) -> T {
        do {
            guard let directory = try SecureDirectory.openBase(directoryPath, create: true) else {
                throw UploadRecordStoreError("\(directoryPath) is missing")
            }
            return try directory.withLock(file: Self.lockName, exclusive: true) { try body(directory) }
        } catch let error as UploadRecordStoreError {
            throw error
        } catch {
            throw UploadRecordStoreError("upload records in \(directoryPath): \(error)")
        }
    }
}
