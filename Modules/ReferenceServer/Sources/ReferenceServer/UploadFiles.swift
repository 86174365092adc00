import Dispatch
import Foundation
import ShareKitCore
import ShareKitCryptoInterface
import ShareKitSecureFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where upload parts live on disk and the plain POSIX I/O on them.
///
/// Each upload has a directory `<uploadsDirectory>/<upload_id>` (0700) with
/// one file per received part, `part-<n>` (0600). A part is first written to
/// a temporary name next to it and renamed only once its digest matched, so
/// a `part-<n>` file is always a whole, checked part. The ids in these paths
/// are the server's own (`up_<hex>`), read back from the database, never
/// taken from a request.
enum UploadFiles {
    /// Read and hash buffer size: memory stays fixed however large the upload.
    static let bufferSize = 256 * 1024

    static func directory(_ server: ReferenceServer, _ uploadID: String) -> String {
        server.uploadsDirectory + "/" + uploadID
    }

    static func partPath(_ server: ReferenceServer, _ uploadID: String, part: Int) -> String {
        directory(server, uploadID) + "/part-\(part)"
    }

    /// A fresh temporary name for part `n`. The random suffix keeps two
    /// requests sending the same part at once from writing into one file.
    static func temporaryPartPath(_ server: ReferenceServer, _ uploadID: String, part: Int) throws -> String {
        let suffix = Hex.encode(try server.crypto.randomBytes(count: 6))
        return directory(server, uploadID) + "/part-\(part).\(suffix).tmp"
    }

    /// Creates the upload's directory (0700) if it is not there yet.
    static func ensureDirectory(_ server: ReferenceServer, _ uploadID: String) throws {
        let path = directory(server, uploadID)
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw ReferenceServerError.uploadFile(operation: "mkdir", path: path, errno: errno)
        }
    }

    /// Deletes an upload's directory and every part in it; a missing directory is fine.
    static func removeAll(_ server: ReferenceServer, _ uploadID: String) {
        let path = directory(server, uploadID)
        if FileManager.default.fileExists(atPath: path) { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Deletes one file, ignoring a file that is already gone.
    static func remove(_ path: String) { _ = unlink(path) }

    /// Creates a new file for writing only by its owner (0600); fails if the name is taken.
    static func createExclusive(_ path: String) throws -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ReferenceServerError.uploadFile(operation: "open", path: path, errno: errno) }
        return fd
    }

    /// Writes every byte of `buffer`, retrying short writes and interruptions.
    static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, path: String) throws {
        try durably { () throws(SecureFileError) in try DurableFile.writeAll(fd, buffer, path: path) }
    }

    /// Flushes a file to stable storage.
    static func sync(_ fd: Int32, path: String) throws {
        try durably { () throws(SecureFileError) in try DurableFile.sync(fd, path: path) }
    }

    /// Flushes a directory, so that a rename in it survives a crash. Best
    /// effort: the part is already stored and recorded when this runs.
    static func syncDirectory(_ path: String) {
        try? DurableFile.syncDirectory(path)
    }

    /// Renames a checked temporary part to its final name (atomic; replaces an earlier copy).
    static func move(_ from: String, to: String) throws {
        guard rename(from, to) == 0 else {
            throw ReferenceServerError.uploadFile(operation: "rename", path: to, errno: errno)
        }
    }

    /// Runs a durable-file step; its failure becomes a
    /// ``ReferenceServerError/uploadFile(operation:path:errno:)``
    /// (operation, path, errno), as the request log has always shown them.
    private static func durably(_ body: () throws(SecureFileError) -> Void) throws {
        do throws(SecureFileError) {
            try body()
        } catch .io(let operation, let path, let code) {
            throw ReferenceServerError.uploadFile(operation: operation, path: path, errno: code)
        } catch {
            throw ReferenceServerError.uploadFile(operation: "write", path: "\(error)", errno: EIO)
        }
    }

    /// What reading the parts of an upload found.
    struct PartsDigest {
        /// SHA-256 of the parts concatenated in order: the whole file.
        var whole: [UInt8]
        /// Each part's own SHA-256, by part number; nil when its file is missing.
        var parts: [Int: [UInt8]?]
    }

    /// The SHA-256 of parts `1...count` read in order from disk through one
    /// fixed-size buffer (the whole file never sits in memory): one pass,
    /// what completing an intact upload costs.
    /// - Returns: the digest, or nil when a part's file is missing.
    /// - Throws: ``ReferenceServerError/uploadFile(operation:path:errno:)`` for a read failure other than a missing file.
    static func hashWhole(_ server: ReferenceServer, _ uploadID: String, count: Int) throws -> [UInt8]? {
        var whole = try server.crypto.makeSHA256Hasher()
        for n in 1...max(1, count) {
            guard try hashFile(partPath(server, uploadID, part: n), { whole.update($0) }) else { return nil }
        }
        return try whole.finalize()
    }

    /// Hashes parts `1...count` from disk through fixed-size buffers: the
    /// whole file never sits in memory. The whole file's digest and the
    /// parts' digests are two SHA-256 passes over the same bytes, so they run
    /// at once on two threads, each reading the parts itself (they are in
    /// the page cache). Completion needs this only when ``hashWhole(_:_:count:)``
    /// did not match, to find the damaged parts. A part replaced while this runs is caught by the
    /// caller, which compares the recorded digests again in its transaction.
    /// - Returns: the whole file's digest and each part's.
    /// - Throws: ``ReferenceServerError/uploadFile(operation:path:errno:)`` for a read failure other than a missing file.
    static func hashParts(_ server: ReferenceServer, _ uploadID: String, count: Int) throws -> PartsDigest {
        let numbers = Array(1...max(1, count))
        let paths = numbers.map { partPath(server, uploadID, part: $0) }
        let results = HashResults()
        DispatchQueue.concurrentPerform(iterations: 2) { pass in
            do {
                if pass == 0 {
                    var whole = try server.crypto.makeSHA256Hasher()
                    for path in paths { _ = try hashFile(path) { whole.update($0) } }
                    results.whole = .success(try whole.finalize())
                } else {
                    var parts: [Int: [UInt8]?] = [:]
                    for (n, path) in zip(numbers, paths) {
                        var part = try server.crypto.makeSHA256Hasher()
                        let found = try hashFile(path) { part.update($0) }
                        parts[n] = .some(found ? try part.finalize() : nil)
                    }
                    results.parts = .success(parts)
                }
            } catch {
                if pass == 0 { results.whole = .failure(error) } else { results.parts = .failure(error) }
            }
        }
        return PartsDigest(whole: try results.whole.get(), parts: try results.parts.get())
    }

    /// What the two passes of ``hashParts(_:_:count:)`` found (each sets its
    /// own field once, before `concurrentPerform` returns).
    private final class HashResults: @unchecked Sendable {
        var whole: Result<[UInt8], any Error> = .success([])
        var parts: Result<[Int: [UInt8]?], any Error> = .success([:])
    }

    /// Reads one part file front to back through a fixed buffer.
    /// - Returns: false when the file does not exist.
    /// - Throws: ``ReferenceServerError/uploadFile(operation:path:errno:)`` for any other failure to open or read it.
    private static func hashFile(_ path: String, _ update: (UnsafeRawBufferPointer) -> Void) throws -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            guard errno == ENOENT else {
                throw ReferenceServerError.uploadFile(operation: "open", path: path, errno: errno)
            }
            return false
        }
        defer { _ = close(fd) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let got = read(fd, buffer.baseAddress, bufferSize)
            if got < 0 {
                if errno == EINTR { continue }
                throw ReferenceServerError.uploadFile(operation: "read", path: path, errno: errno)
            }
            if got == 0 { return true }
            update(UnsafeRawBufferPointer(rebasing: buffer[0..<got]))
        }
    }
}
