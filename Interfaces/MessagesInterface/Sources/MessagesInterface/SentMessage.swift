/// One attachment of a sent message, as the server stored it.
public struct SentAttachment: Hashable, Sendable {
    public var uploadID: String
    public var fileName: String
    public var size: Int64
    /// The server's SHA-256 of the file, lowercase hex; the SHA-256 of the
    /// part digests when ``digestAlgorithm`` is `sha256-composite`.
    public var sha256: String
    /// How ``sha256`` was made when it is not the file's plain SHA-256
    /// (`sha256-composite`), so that nobody compares it with `sha256sum`.
    public var digestAlgorithm: String?

    public init(uploadID: String, fileName: String, size: Int64, sha256: String) {
        self.init(uploadID: uploadID, fileName: fileName, size: size, sha256: sha256, digestAlgorithm: nil)
    }

    /// An attachment whose digest may be of another form than the file's plain SHA-256.
    /// - Parameters:
    ///   - uploadID: the upload's id.
    ///   - fileName: the file's name.
    ///   - size: its size in bytes.
    ///   - sha256: the announced digest, lowercase hex.
    ///   - digestAlgorithm: its form, nil for the plain SHA-256.
    public init(uploadID: String, fileName: String, size: Int64, sha256: String, digestAlgorithm: String?) {
        self.uploadID = uploadID
        self.fileName = fileName
        self.size = size
        self.sha256 = sha256
        self.digestAlgorithm = digestAlgorithm
    }
}

/// The message the server holds after a successful send.
public struct SentMessage: Hashable, Sendable {
    public var messageID: String
    /// The thread (nil for a message on a channel's main timeline).
    public var threadID: String?
    public var channelID: String
    /// The server answered `200` with `Idempotent-Replayed: true`: the
    /// message had already been delivered by an earlier attempt.
    public var replayed: Bool
    public var attachments: [SentAttachment]

    public init(
        messageID: String, threadID: String?, channelID: String, replayed: Bool, attachments: [SentAttachment] = []
    ) {
        self.messageID = messageID
        self.threadID = threadID
        self.channelID = channelID
        self.replayed = replayed
        self.attachments = attachments
    }
}
