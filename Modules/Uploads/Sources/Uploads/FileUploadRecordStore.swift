public import CryptoInterface
import Foundation
import SecureFiles
public import UploadsInterface

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
                record.partDigests.count == record.partsCount
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

    private func fileName(path: String, serverOrigin: String) throws(UploadRecordStoreError) -> String {
        do {
            return "upload-" + Encoding.hex(try crypto.sha256(contentsOf: Array((serverOrigin + "\n" + path).utf8)))
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
