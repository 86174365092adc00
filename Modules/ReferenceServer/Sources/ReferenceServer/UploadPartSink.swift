import Foundation
import ShareKitCore
import ShareKitCryptoInterface
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitSQLInterface
import ShareKitSecureFiles
import ShareKitWireContract

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Receives the body of one uploadPart request: writes each chunk to a
/// temporary file while hashing it, and on ``finish()`` keeps the part only
/// if its length and SHA-256 are the ones announced in `Content-Length` and
/// `Content-Digest`. The body never sits in memory: memory use is one
/// engine chunk, whatever the part size.
///
/// The engine calls exactly one of ``finish()`` and ``abort(_:)``; both
/// leave no temporary file behind.
final class UploadPartSink: HTTPBodySink {
    private let server: ReferenceServer
    private let uploadID: String
    private let part: Int
    private let expectedLength: Int64
    private let expectedDigest: [UInt8]
    private let temporaryPath: String
    private var hasher: any SHA256Hasher
    private var fd: Int32
    private var received: Int64 = 0
    /// The part's write-back is started every 1 MiB, so the fsync before
    /// the part is acknowledged waits for the last MiB instead of all of it
    /// (parts are fsynced one by one while others arrive).
    private var writeback = EarlyWriteback(window: 1 << 20)
    /// Set when the disk filled while the part was written: the rest of
    /// the body is read and dropped, and ``finish()`` answers `507`.
    private var outOfSpace = false

    /// Opens the temporary file (in a 0700 directory, mode 0600) for one part.
    /// - Throws: ``ReferenceServerError/uploadFile(operation:path:errno:)`` when the file cannot be created.
    init(
        server: ReferenceServer, upload: UploadRecord, part: Int, expectedLength: Int64, expectedDigest: [UInt8]
    ) throws {
        self.server = server
        self.uploadID = upload.id
        self.part = part
        self.expectedLength = expectedLength
        self.expectedDigest = expectedDigest
        self.hasher = try server.crypto.makeSHA256Hasher()
        try UploadFiles.ensureDirectory(server, upload.id)
        let path = try UploadFiles.temporaryPartPath(server, upload.id, part: part)
        self.temporaryPath = path
        self.fd = try UploadFiles.createExclusive(path)
    }

    func write(_ chunk: UnsafeRawBufferPointer) throws {
        guard received + Int64(chunk.count) <= expectedLength else {
            throw UploadRoutes.wrongPartSize(part: part, expected: expectedLength)
        }
        received += Int64(chunk.count)
        if outOfSpace { return }
        do {
            try UploadFiles.writeAll(fd, chunk, path: temporaryPath)
            writeback.wrote(fd, upTo: received)
        } catch let error as ReferenceServerError where error.isOutOfSpace {
            // Not thrown: the engine would answer a thrown problem as it is,
            // without the `Retry-After` every 507 carries. The part's bytes
            // so far go at once (they hold the space others need); the rest
            // of the body is only read, and finish answers.
            outOfSpace = true
            discard()
            return
        }
        hasher.update(chunk)
    }

    func finish() throws -> HTTPResponse {
        if outOfSpace { return UploadRoutes.finalize(server, UploadRoutes.insufficientStorage()) }
        do {
            let response = try store()
            return UploadRoutes.finalize(server, response)
        } catch let problem as HTTPProblem {
            discard()
            return UploadRoutes.finalize(server, problem.response())
        } catch let error as SQLError {
            discard()
            return UploadRoutes.finalize(server, UploadRoutes.storageUnavailable(error))
        } catch let error as ReferenceServerError where error.isOutOfSpace {
            discard()
            return UploadRoutes.finalize(server, UploadRoutes.insufficientStorage())
        } catch {
            discard()
            throw error
        }
    }

    func abort(_ reason: HTTPBodyAbortReason) {
        discard()
    }

    /// Checks the body and, if it is the announced part, makes it the stored copy.
    private func store() throws -> HTTPResponse {
        guard received == expectedLength else {
            throw UploadRoutes.wrongPartSize(part: part, expected: expectedLength)
        }
        guard try hasher.finalize() == expectedDigest else {
            throw Problems.unprocessable(
                "digest_mismatch", "Part \(part) does not match its Content-Digest; it was not stored. Send it again.")
        }
        try UploadFiles.sync(fd, path: temporaryPath)
        _ = close(fd)
        fd = -1
        let digest = ContentDigest(sha256: expectedDigest).headerValue
        // The state check, the rename and the row change together, so an
        // abort or an expiry sweep (which deletes files after its own commit)
        // either sees this part or this part sees it.
        // The body may run again on PostgreSQL (a deadlock victim is rolled
        // back and repeated): a part renamed in by a rolled-back run is in
        // place, and only its row is written again.
        var moved = false
        try server.db.transaction {
            let upload = try UploadRoutes.reload(server, uploadID)
            if upload.isExpired(now: server.now) { throw UploadRecord.expired(upload.id) }
            guard upload.isPending else { throw UploadRecord.notPending(upload) }
            try server.db.execute(
                """
                INSERT INTO upload_parts (upload_id, part, size, digest) VALUES (?, ?, ?, ?)
                ON CONFLICT(upload_id, part) DO UPDATE SET size = excluded.size, digest = excluded.digest
                """, [.text(uploadID), .integer(Int64(part)), .integer(received), .text(digest)])
            // Last, so that a failed rename rolls the row back with it.
            if !moved {
                try UploadFiles.move(temporaryPath, to: UploadFiles.partPath(server, uploadID, part: part))
                moved = true
            }
        }
        UploadFiles.syncDirectory(UploadFiles.directory(server, uploadID))
        return JSONBody.response(200, UploadPartReceived(part: Int64(part), size: received))
    }

    /// Closes and deletes the temporary file (a no-op once it was renamed).
    private func discard() {
        if fd >= 0 {
            _ = close(fd)
            fd = -1
        }
        UploadFiles.remove(temporaryPath)
    }
}
