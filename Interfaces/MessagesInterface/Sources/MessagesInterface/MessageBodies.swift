public import WireContract

/// The body of createMessage (to a thread or a channel) and the
/// `first_message` of createThread: the wire contract's type, under the
/// name this interface has always given it.
public typealias CreateMessageBody = MessageCreate

/// The body of createThread (a new post in a forum channel with its first
/// message): the wire contract's type.
public typealias CreateThreadBody = ThreadCreate

/// The answer of createMessage and createThread: `{"message": Message}`.
public struct MessageAnswer: Decodable, Hashable, Sendable {
    /// A message as the server describes it.
    public struct Message: Decodable, Hashable, Sendable {
        /// The message's id.
        public var id: String
        /// The thread it is in, when it is in one.
        public var threadID: String?
        /// The channel it is in.
        public var channelID: String
        /// Its attachments.
        public var attachments: [Attachment]?

        enum CodingKeys: String, CodingKey {
            case id, attachments
            case threadID = "thread_id"
            case channelID = "channel_id"
        }
    }

    /// An attachment of a message.
    public struct Attachment: Decodable, Hashable, Sendable {
        /// The upload it was made from.
        public var uploadID: String
        /// The file's name.
        public var fileName: String?
        /// Its size in bytes.
        public var size: Int64?
        /// Its SHA-256 in hex.
        public var sha256: String?

        enum CodingKeys: String, CodingKey {
            case size, sha256
            case uploadID = "upload_id"
            case fileName = "file_name"
        }
    }

    /// The message.
    public var message: Message

    /// The message as a sender reports it.
    /// - Parameter replayed: whether the answer was a replay of an earlier delivery.
    /// - Returns: the sent message.
    public func sentMessage(replayed: Bool) -> SentMessage {
        SentMessage(
            messageID: message.id, threadID: message.threadID, channelID: message.channelID, replayed: replayed,
            attachments: (message.attachments ?? []).map {
                SentAttachment(
                    uploadID: $0.uploadID, fileName: $0.fileName ?? "", size: max(0, $0.size ?? 0),
                    sha256: $0.sha256 ?? "")
            })
    }
}

/// The answer of `GET /api/v1/instance/limits`.
public struct InstanceLimitsAnswer: Decodable, Hashable, Sendable {
    /// `file_max_upload_bytes`.
    public var fileMaxUploadBytes: Int64
    /// `message_max_attachments`.
    public var messageMaxAttachments: Int
    /// `upload_part_size`.
    public var uploadPartSize: Int64?
    /// `recent_targets`.
    public var recentTargets: Int?
    /// `accepted_content_types`.
    public var acceptedContentTypes: [String]?

    enum CodingKeys: String, CodingKey {
        case fileMaxUploadBytes = "file_max_upload_bytes"
        case messageMaxAttachments = "message_max_attachments"
        case uploadPartSize = "upload_part_size"
        case recentTargets = "recent_targets"
        case acceptedContentTypes = "accepted_content_types"
    }

    /// The limits, or nil when a number is out of its range (a size or a
    /// count that is not positive): a limit that cannot be right is not used.
    public var limits: InstanceLimits? {
        guard fileMaxUploadBytes > 0, messageMaxAttachments >= 0 else { return nil }
        if let uploadPartSize, uploadPartSize <= 0 { return nil }
        return InstanceLimits(
            fileMaxUploadBytes: fileMaxUploadBytes, messageMaxAttachments: messageMaxAttachments,
            uploadPartSize: uploadPartSize, recentTargets: recentTargets.map { max(0, $0) },
            acceptedContentTypes: acceptedContentTypes)
    }
}
