public import ShareKitCore

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
    /// The SHA-256 of each part of the copy, taken over from the inbox
    /// entry (hashed while intake made the copy), so that the upload needs
    /// no pass over the file; stored as `part_digests` in the attachments'
    /// JSON and read leniently (a value that does not fit the file reads as
    /// nil, and the upload hashes the file).
    public var partDigests: FilePartDigests?

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

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        storedPath = try container.decode(String.self, forKey: .storedPath)
        fileName = try container.decode(String.self, forKey: .fileName)
        contentType = try container.decode(String.self, forKey: .contentType)
        size = try container.decode(Int64.self, forKey: .size)
        completedUploadID = try container.decodeIfPresent(String.self, forKey: .completedUploadID)
        partDigests = FilePartDigests.decodeLeniently(from: container, forKey: .partDigests, fileSize: size)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(storedPath, forKey: .storedPath)
        try container.encode(fileName, forKey: .fileName)
        try container.encode(contentType, forKey: .contentType)
        try container.encode(size, forKey: .size)
        try container.encodeIfPresent(completedUploadID, forKey: .completedUploadID)
        try partDigests?.encode(to: &container, forKey: .partDigests)
    }

    private enum CodingKeys: String, CodingKey {
        case storedPath = "stored_path"
        case fileName = "file_name"
        case contentType = "content_type"
        case size
        case completedUploadID = "completed_upload_id"
        case partDigests = "part_digests"
    }
}
