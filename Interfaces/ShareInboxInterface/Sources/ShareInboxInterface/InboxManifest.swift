public import ShareCore

/// `manifest.json` of an inbox entry: everything needed to send the share
/// later, in another process, exactly once. It never holds a token or any
/// other secret (tests scan every manifest they produce).
///
/// ```json
/// {"format_version": 1, "client_msg_id": "0193...", "server_origin": "http://127.0.0.1:8080",
///  "target": {"kind": "thread", "id": "t1", "display_path": "server > Gateway > resume the gateway"},
///  "comment": "have a look", "title": null, "created_at": "2026-12-01T03:00:00Z",
///  "attachments": [{"file": "1-report.pdf", "file_name": "report.pdf",
///                   "content_type": "application/pdf", "size": 1234, "completed_upload_id": null}],
///  "attempts": 1, "last_error": "the server could not be reached (...)"}
/// ```
public struct InboxManifest: Hashable, Sendable, Codable {
    /// The manifest format this build writes and reads.
    public static let currentFormatVersion = 1

    /// The format version (an entry with a newer one is quarantined, not guessed at).
    public var formatVersion: Int
    /// The message's idempotency key, fixed when the person pressed send.
    public var clientMsgID: String
    /// The server the share is for (its origin).
    public var serverOrigin: String
    /// Where the share goes.
    public var target: ShareTarget
    /// The message text: the comment, then links and text items.
    public var comment: String
    /// The title of a new forum post.
    public var title: String?
    /// When the person pressed send (RFC 3339 UTC).
    public var createdAt: String
    /// The files, in order, each inside the entry folder.
    public var attachments: [InboxAttachment]
    /// How many attempts to send were made.
    public var attempts: Int
    /// Why the last attempt did not send it (for `share inbox list`).
    public var lastError: String?

    /// Makes a manifest.
    public init(
        formatVersion: Int = InboxManifest.currentFormatVersion, clientMsgID: String, serverOrigin: String,
        target: ShareTarget, comment: String, title: String? = nil, createdAt: String,
        attachments: [InboxAttachment] = [], attempts: Int = 0, lastError: String? = nil
    ) {
        self.formatVersion = formatVersion
        self.clientMsgID = clientMsgID
        self.serverOrigin = serverOrigin
        self.target = target
        self.comment = comment
        self.title = title
        self.createdAt = createdAt
        self.attachments = attachments
        self.attempts = attempts
        self.lastError = lastError
    }

    private enum CodingKeys: String, CodingKey {
        case formatVersion = "format_version"
        case clientMsgID = "client_msg_id"
        case serverOrigin = "server_origin"
        case target, comment, title
        case createdAt = "created_at"
        case attachments, attempts
        case lastError = "last_error"
    }
}

/// One file of an inbox entry.
public struct InboxAttachment: Hashable, Sendable, Codable {
    /// The file's name inside the entry folder: a plain name (no `/`, not
    /// `.` or `..`, no leading `.`); an entry naming anything else is quarantined.
    public var file: String
    /// The name the server is told.
    public var fileName: String
    /// The concrete content type to upload with.
    public var contentType: String
    /// The size in bytes (the copy is checked against it).
    public var size: Int64
    /// The upload id once an attempt completed this file's upload: a resend
    /// must attach the same upload (the server's idempotency record names it).
    public var completedUploadID: String?

    /// Makes an attachment record.
    public init(file: String, fileName: String, contentType: String, size: Int64, completedUploadID: String? = nil) {
        self.file = file
        self.fileName = fileName
        self.contentType = contentType
        self.size = size
        self.completedUploadID = completedUploadID
    }

    private enum CodingKeys: String, CodingKey {
        case file
        case fileName = "file_name"
        case contentType = "content_type"
        case size
        case completedUploadID = "completed_upload_id"
    }
}
