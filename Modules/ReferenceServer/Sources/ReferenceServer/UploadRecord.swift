import Foundation
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitSQLInterface
import ShareKitWireContract

/// One row of `uploads`, as the upload routes and attachments read it.
///
/// An upload is `pending` until completeUpload checks the whole file, then
/// `complete` for good; `aborted` once its owner gave up on it or the expiry
/// sweep collected it. A pending or aborted upload whose `expires_at` has
/// passed is *expired*: every route answers `404 upload_expired` for it, so a
/// client knows to start over rather than resume.
struct UploadRecord {
    let id: String
    let username: String
    let fileName: String
    let contentType: String
    let size: Int64
    let sha256: String
    let partSize: Int64
    let partsCount: Int
    let state: String
    let expiresAt: Int64
    /// The form of ``sha256``: `sha256` or `sha256-composite` (``ShareKitWireContract/UploadDigestAlgorithm``).
    let digestAlgorithm: String

    static let columns =
        "id, username, file_name, content_type, size, sha256, part_size, parts_count, state, expires_at, "
        + "digest_algorithm"

    init(row: SQLRow) throws {
        id = try row.get("id")
        username = try row.get("username")
        fileName = try row.get("file_name")
        contentType = try row.get("content_type")
        size = try row.get("size")
        sha256 = try row.get("sha256")
        partSize = try row.get("part_size")
        partsCount = try row.get("parts_count")
        state = try row.get("state")
        expiresAt = try row.get("expires_at")
        digestAlgorithm = try row.get("digest_algorithm")
    }

    /// Whether ``sha256`` is the composite digest (of the part digests).
    var isComposite: Bool { digestAlgorithm == UploadDigestAlgorithm.sha256Composite }

    var isPending: Bool { state == "pending" }
    var isComplete: Bool { state == "complete" }

    /// Whether the upload has outlived `upload_ttl`: only unfinished uploads expire.
    func isExpired(now: Int64) -> Bool { !isComplete && expiresAt <= now }

    /// The exact length of part `n`: `part_size` for every part but the last, which holds the rest.
    func expectedLength(ofPart n: Int) -> Int64 {
        n < partsCount ? partSize : size - partSize * Int64(partsCount - 1)
    }

    /// Loads an upload for its owner. Another user's upload does not exist
    /// for the caller (404), the way an unreadable channel does not.
    /// - Parameters:
    ///   - server: the server.
    ///   - id: the upload id from the path.
    ///   - username: the caller.
    ///   - allowExpired: return an expired upload instead of refusing it (for the sweep).
    /// - Returns: the upload.
    /// - Throws: `404 not_found`, or `404 upload_expired` after sweeping the
    ///   expired upload's files.
    static func load(_ server: ReferenceServer, id: String, username: String, allowExpired: Bool = false) throws
        -> UploadRecord
    {
        guard
            let row = try server.db.query(
                "SELECT \(columns) FROM uploads WHERE id = ? AND username = ?", [.text(id), .text(username)]
            ).first
        else { throw Problems.notFound("Upload \(id)") }
        let upload = try UploadRecord(row: row)
        if !allowExpired, upload.isExpired(now: server.now) {
            try UploadExpiry.sweep(server, ids: [upload.id])
            throw expired(id)
        }
        return upload
    }

    /// The answer for an upload past its `expires_at`.
    static func expired(_ id: String) -> HTTPProblem {
        HTTPProblem(
            status: 404, code: "upload_expired", title: "Upload expired",
            detail: "Upload \(id) expired before it was completed; create a new upload.")
    }

    /// The answer for a part or completion of an upload that is no longer pending.
    static func notPending(_ upload: UploadRecord) -> HTTPProblem {
        Problems.conflict("upload_not_pending", "Upload \(upload.id) is \(upload.state), not pending.")
    }
}
