/// One file of an outbox item: the outbox's own copy and what the server is told.
public struct OutboxAttachment: Hashable, Sendable, Codable {
    /// The absolute path of the outbox's copy (inside the outbox's files directory).
    public var storedPath: String
    /// The name the server is told.
    public var fileName: String
    /// The concrete content type to upload with.
    public var contentType: String
    /// The size in bytes.
    public var size: Int64
    /// The upload id once an attempt completed this file's upload: a resend
    /// attaches the same upload, because the server's idempotency record of
    /// the message names its upload ids.
    public var completedUploadID: String?

    /// Makes an attachment record.
    public init(
        storedPath: String, fileName: String, contentType: String, size: Int64, completedUploadID: String? = nil
    ) {
        self.storedPath = storedPath
        self.fileName = fileName
        self.contentType = contentType
        self.size = size
        self.completedUploadID = completedUploadID
    }

    private enum CodingKeys: String, CodingKey {
        case storedPath = "stored_path"
        case fileName = "file_name"
        case contentType = "content_type"
        case size
        case completedUploadID = "completed_upload_id"
    }
}
