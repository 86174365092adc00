public import ShareKitCore

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
///  "attempts": 1, "last_error": "the server could not be reached",
///  "not_before": "2026-12-01T03:00:30.000Z", "message_requested": false}
/// ```
///
/// `not_before` and `message_requested` are written only by an
/// interrupted or failed send; a manifest without them is as before.
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
    /// The undo window of a share interrupted with Ctrl-C: until this time
    /// (RFC 3339 UTC) share-daemon leaves the entry alone, so that the
    /// person can take it back (`share inbox drop`). Nil: no wait. Decoding
    /// refuses a value that is not an RFC 3339 time; whoever honours it
    /// checks it against ``maximumUndoWindowSeconds`` (a time further ahead
    /// than that was not written by ShareKit and is not honoured).
    public var notBefore: String?
    /// The message itself (createMessage or createThread) was asked for in
    /// an attempt that ended without an answer saying what the server holds:
    /// the message may already be on the server. Dropping the share then
    /// says so instead of taking it back silently.
    public var messageRequested: Bool

    /// The longest undo window a share may wait (one hour): `share send
    /// --undo-window` accepts no more, and the daemon honours no
    /// `not_before` further ahead than this.
    public static let maximumUndoWindowSeconds: Int64 = 3600

    /// ``notBefore`` in milliseconds since 1970, nil when absent.
    public var notBeforeMilliseconds: Int64? { notBefore.flatMap(RFC3339.unixMilliseconds) }

    /// How long, in milliseconds from `now`, share-daemon must still leave
    /// the entry alone: nil when there is no window or it is over, and
    /// `.outOfRange` for a window further ahead than
    /// ``maximumUndoWindowSeconds`` (not honoured).
    /// - Parameter now: milliseconds since 1970.
    public func undoWait(now: Int64) -> UndoWait? {
        guard let until = notBeforeMilliseconds, until > now else { return nil }
        let (left, overflow) = until.subtractingReportingOverflow(now)
        guard !overflow, left <= Self.maximumUndoWindowSeconds * 1000 else { return .outOfRange(until: until) }
        return .waiting(until: until)
    }

    /// Whether share-daemon must leave an entry alone now.
    public enum UndoWait: Hashable, Sendable {
        /// The window lasts until this time (milliseconds since 1970).
        case waiting(until: Int64)
        /// The entry names a time further ahead than any window: it is not honoured.
        case outOfRange(until: Int64)
    }

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
        self.notBefore = nil
        self.messageRequested = false
    }

    /// Decodes a manifest; `not_before` must be an RFC 3339 time and
    /// `message_requested` a Boolean when present.
    /// - Throws: `DecodingError` naming the first field that is wrong.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        formatVersion = try container.decode(Int.self, forKey: .formatVersion)
        clientMsgID = try container.decode(String.self, forKey: .clientMsgID)
        serverOrigin = try container.decode(String.self, forKey: .serverOrigin)
        target = try container.decode(ShareTarget.self, forKey: .target)
        comment = try container.decode(String.self, forKey: .comment)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        createdAt = try container.decode(String.self, forKey: .createdAt)
        attachments = try container.decode([InboxAttachment].self, forKey: .attachments)
        attempts = try container.decode(Int.self, forKey: .attempts)
        lastError = try container.decodeIfPresent(String.self, forKey: .lastError)
        notBefore = try container.decodeIfPresent(String.self, forKey: .notBefore)
        if let notBefore, RFC3339.unixMilliseconds(notBefore) == nil {
            throw DecodingError.dataCorruptedError(
                forKey: .notBefore, in: container, debugDescription: "not an RFC 3339 time")
        }
        messageRequested = try container.decodeIfPresent(Bool.self, forKey: .messageRequested) ?? false
    }

    /// Encodes a manifest; `not_before` and `message_requested` only when
    /// they say something, so a manifest without them reads as before.
    /// - Throws: what the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(formatVersion, forKey: .formatVersion)
        try container.encode(clientMsgID, forKey: .clientMsgID)
        try container.encode(serverOrigin, forKey: .serverOrigin)
        try container.encode(target, forKey: .target)
        try container.encode(comment, forKey: .comment)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(attachments, forKey: .attachments)
        try container.encode(attempts, forKey: .attempts)
        try container.encodeIfPresent(lastError, forKey: .lastError)
        try container.encodeIfPresent(notBefore, forKey: .notBefore)
        if messageRequested { try container.encode(true, forKey: .messageRequested) }
    }

    private enum CodingKeys: String, CodingKey {
        case formatVersion = "format_version"
        case clientMsgID = "client_msg_id"
        case serverOrigin = "server_origin"
        case target, comment, title
        case createdAt = "created_at"
        case attachments, attempts
        case lastError = "last_error"
        case notBefore = "not_before"
        case messageRequested = "message_requested"
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
    /// The SHA-256 of each part of the copy, hashed while intake made it,
    /// so that the upload (by `share send` or by the daemon that takes the
    /// entry over) needs no pass over the file: `"part_digests":
    /// {"part_size": 8388608, "sha256": ["<64 lowercase hex>", ...]}`.
    /// Read leniently: a value that does not fit this attachment (a digest
    /// not 64 lowercase hex digits, a count that is not the number of parts
    /// of `size` at `part_size`, a part size out of range, a wrong type)
    /// reads as nil, and the upload hashes the file as for a manifest
    /// without it; nothing else of the entry is refused for it.
    public var partDigests: FilePartDigests?

    /// Makes an attachment record.
    public init(file: String, fileName: String, contentType: String, size: Int64, completedUploadID: String? = nil) {
        self.file = file
        self.fileName = fileName
        self.contentType = contentType
        self.size = size
        self.completedUploadID = completedUploadID
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        file = try container.decode(String.self, forKey: .file)
        fileName = try container.decode(String.self, forKey: .fileName)
        contentType = try container.decode(String.self, forKey: .contentType)
        size = try container.decode(Int64.self, forKey: .size)
        completedUploadID = try container.decodeIfPresent(String.self, forKey: .completedUploadID)
        partDigests = FilePartDigests.decodeLeniently(from: container, forKey: .partDigests, fileSize: size)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(fileName, forKey: .fileName)
        try container.encode(contentType, forKey: .contentType)
        try container.encode(size, forKey: .size)
        try container.encodeIfPresent(completedUploadID, forKey: .completedUploadID)
        try partDigests?.encode(to: &container, forKey: .partDigests)
    }

    private enum CodingKeys: String, CodingKey {
        case file
        case fileName = "file_name"
        case contentType = "content_type"
        case size
        case completedUploadID = "completed_upload_id"
        case partDigests = "part_digests"
    }
}
