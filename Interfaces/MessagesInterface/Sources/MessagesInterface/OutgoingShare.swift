public import ShareKitCore
public import ShareKitUploadsInterface

/// One share the person sent: what goes where, with the `client_msg_id`
/// fixed when they pressed send, so that every retry (by this process, by
/// the daemon after a takeover) is the same message to the server.
public struct OutgoingShare: Hashable, Sendable {
    /// The idempotency key of the message (`client_msg_id`), a UUIDv7.
    public var clientMsgID: UUIDv7
    /// A thread, a channel's main timeline, or a new post in a forum channel.
    public var target: ShareTarget
    /// The comment (the message text); may be empty when there are attachments.
    public var text: String
    /// Files to upload and attach, in order.
    public var attachments: [UploadSource]
    /// The title of a new post (``ShareKitCore/ShareTarget/Kind/newPost``); when
    /// nil, the first line of the text or else the first file's name.
    public var title: String?
    /// Upload ids of attachments an earlier attempt already completed, by
    /// index in ``attachments`` (what ``SendProgress/uploaded(index:uploadID:)``
    /// reported, kept in the inbox manifest). They are not uploaded again:
    /// the server's idempotency record names the upload ids, so a resend
    /// after a lost answer must reuse them to be answered as a replay
    /// rather than `422 client_msg_id_conflict`.
    public var completedUploadIDs: [Int: String]

    public init(
        clientMsgID: UUIDv7, target: ShareTarget, text: String, attachments: [UploadSource] = [], title: String? = nil,
        completedUploadIDs: [Int: String] = [:]
    ) {
        self.clientMsgID = clientMsgID
        self.target = target
        self.text = text
        self.attachments = attachments
        self.title = title
        self.completedUploadIDs = completedUploadIDs
    }
}

/// The server's limits a sender checks before sending any byte.
public struct MessageLimits: Hashable, Sendable {
    /// `message_max_attachments`.
    public var messageMaxAttachments: Int
    /// `file_max_upload_bytes`.
    public var fileMaxUploadBytes: Int64
    /// `upload_part_size`, when announced.
    public var uploadPartSize: Int64?
    /// `upload_digest_algorithms`, empty when not announced.
    public var uploadDigestAlgorithms: [String]

    /// Makes the limits a sender checks.
    /// - Parameters:
    ///   - messageMaxAttachments: `message_max_attachments`.
    ///   - fileMaxUploadBytes: `file_max_upload_bytes`.
    public init(messageMaxAttachments: Int, fileMaxUploadBytes: Int64) {
        self.init(
            messageMaxAttachments: messageMaxAttachments, fileMaxUploadBytes: fileMaxUploadBytes, uploadPartSize: nil,
            uploadDigestAlgorithms: [])
    }

    /// Makes limits with what the uploader needs too.
    /// - Parameters:
    ///   - messageMaxAttachments: `message_max_attachments`.
    ///   - fileMaxUploadBytes: `file_max_upload_bytes`.
    ///   - uploadPartSize: `upload_part_size`, if announced.
    ///   - uploadDigestAlgorithms: `upload_digest_algorithms`, if announced.
    public init(
        messageMaxAttachments: Int, fileMaxUploadBytes: Int64, uploadPartSize: Int64?, uploadDigestAlgorithms: [String]
    ) {
        self.messageMaxAttachments = messageMaxAttachments
        self.fileMaxUploadBytes = fileMaxUploadBytes
        self.uploadPartSize = uploadPartSize
        self.uploadDigestAlgorithms = uploadDigestAlgorithms
    }
}

/// What `GET /instance/limits` announces: the limits a client checks
/// before sending, and the content types the server accepts.
public struct InstanceLimits: Hashable, Sendable {
    /// `file_max_upload_bytes`.
    public var fileMaxUploadBytes: Int64
    /// `message_max_attachments`.
    public var messageMaxAttachments: Int
    /// `upload_part_size`, when announced.
    public var uploadPartSize: Int64?
    /// `recent_targets` (`client.share.recent_targets`), when announced.
    public var recentTargets: Int?
    /// `accepted_content_types`, when announced.
    public var acceptedContentTypes: [String]?
    /// `upload_digest_algorithms`, when announced.
    public var uploadDigestAlgorithms: [String]?

    /// Makes a value.
    public init(
        fileMaxUploadBytes: Int64, messageMaxAttachments: Int, uploadPartSize: Int64? = nil, recentTargets: Int? = nil,
        acceptedContentTypes: [String]? = nil
    ) {
        self.init(
            fileMaxUploadBytes: fileMaxUploadBytes, messageMaxAttachments: messageMaxAttachments,
            uploadPartSize: uploadPartSize, recentTargets: recentTargets, acceptedContentTypes: acceptedContentTypes,
            uploadDigestAlgorithms: nil)
    }

    /// Makes a value with the digest forms createUpload takes.
    /// - Parameters:
    ///   - fileMaxUploadBytes: `file_max_upload_bytes`.
    ///   - messageMaxAttachments: `message_max_attachments`.
    ///   - uploadPartSize: `upload_part_size`, when announced.
    ///   - recentTargets: `recent_targets`, when announced.
    ///   - acceptedContentTypes: `accepted_content_types`, when announced.
    ///   - uploadDigestAlgorithms: `upload_digest_algorithms`, when announced.
    public init(
        fileMaxUploadBytes: Int64, messageMaxAttachments: Int, uploadPartSize: Int64?, recentTargets: Int?,
        acceptedContentTypes: [String]?, uploadDigestAlgorithms: [String]?
    ) {
        self.uploadDigestAlgorithms = uploadDigestAlgorithms
        self.fileMaxUploadBytes = fileMaxUploadBytes
        self.messageMaxAttachments = messageMaxAttachments
        self.uploadPartSize = uploadPartSize
        self.recentTargets = recentTargets
        self.acceptedContentTypes = acceptedContentTypes
    }

    /// The limits a sender checks.
    public var messageLimits: MessageLimits {
        MessageLimits(
            messageMaxAttachments: messageMaxAttachments, fileMaxUploadBytes: fileMaxUploadBytes,
            uploadPartSize: uploadPartSize, uploadDigestAlgorithms: uploadDigestAlgorithms ?? [])
    }
}
