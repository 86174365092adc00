// The bodies of the catalog operations: getHealth, getInstanceLimits,
// listSpaces, searchThreadTitles.

/// The answer of getHealth (`Health`).
public struct Health: Codable, Hashable, Sendable {
    /// Always `ok`.
    public var status: String

    /// Makes an answer.
    /// - Parameter status: `ok`.
    public init(status: String = "ok") { self.status = status }
}

/// The answer of getInstanceLimits (`InstanceLimits`).
public struct InstanceLimits: Codable, Hashable, Sendable {
    /// The largest upload, in bytes.
    public var fileMaxUploadBytes: Int64
    /// Attachments per message.
    public var messageMaxAttachments: Int
    /// The size of every part but the last, in bytes; nil only when a
    /// server left it out (clients then use their default).
    public var uploadPartSize: Int64?
    /// How many recent share targets clients keep; nil only when a server
    /// left it out (clients then use their default).
    public var recentTargets: Int?
    /// The content types createUpload accepts (an addition: clients must not require it).
    public var acceptedContentTypes: [String]?
    /// The `digest_algorithm` forms createUpload takes (an addition: a server
    /// that leaves it out takes only ``UploadDigestAlgorithm/sha256``).
    public var uploadDigestAlgorithms: [String]?

    /// Makes an answer.
    /// - Parameters:
    ///   - fileMaxUploadBytes: the largest upload.
    ///   - messageMaxAttachments: attachments per message.
    ///   - uploadPartSize: the part size.
    ///   - recentTargets: recent targets kept.
    ///   - acceptedContentTypes: the accepted types, or nil to leave them out.
    public init(
        fileMaxUploadBytes: Int64, messageMaxAttachments: Int, uploadPartSize: Int64?, recentTargets: Int?,
        acceptedContentTypes: [String]?
    ) {
        self.init(
            fileMaxUploadBytes: fileMaxUploadBytes, messageMaxAttachments: messageMaxAttachments,
            uploadPartSize: uploadPartSize, recentTargets: recentTargets, acceptedContentTypes: acceptedContentTypes,
            uploadDigestAlgorithms: nil)
    }

    /// Makes an answer that lists the digest forms createUpload takes.
    /// - Parameters:
    ///   - fileMaxUploadBytes: the largest upload.
    ///   - messageMaxAttachments: attachments per message.
    ///   - uploadPartSize: the part size.
    ///   - recentTargets: recent targets kept.
    ///   - acceptedContentTypes: the accepted types, or nil to leave them out.
    ///   - uploadDigestAlgorithms: the digest forms createUpload takes, or nil to leave them out.
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

    private enum CodingKeys: String, CodingKey {
        case fileMaxUploadBytes = "file_max_upload_bytes"
        case messageMaxAttachments = "message_max_attachments"
        case uploadPartSize = "upload_part_size"
        case recentTargets = "recent_targets"
        case acceptedContentTypes = "accepted_content_types"
        case uploadDigestAlgorithms = "upload_digest_algorithms"
    }
}

/// A channel the caller can read (`Channel`).
public struct ChannelBody: Codable, Hashable, Sendable {
    /// The channel's id.
    public var id: String
    /// Its name.
    public var name: String
    /// `chat` or `forum`.
    public var kind: String
    /// Whether the caller can write in it.
    public var canWrite: Bool

    /// Makes a channel.
    /// - Parameters:
    ///   - id: the id.
    ///   - name: the name.
    ///   - kind: `chat` or `forum`.
    ///   - canWrite: whether the caller can write.
    public init(id: String, name: String, kind: String, canWrite: Bool) {
        self.id = id
        self.name = name
        self.kind = kind
        self.canWrite = canWrite
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, kind
        case canWrite = "can_write"
    }
}

/// A space with the channels the caller can read (`Space`), an element of listSpaces' answer.
public struct SpaceBody: Codable, Hashable, Sendable {
    /// The space's id.
    public var id: String
    /// Its name.
    public var name: String
    /// Its readable channels.
    public var channels: [ChannelBody]

    /// Makes a space.
    /// - Parameters:
    ///   - id: the id.
    ///   - name: the name.
    ///   - channels: the readable channels.
    public init(id: String, name: String, channels: [ChannelBody]) {
        self.id = id
        self.name = name
        self.channels = channels
    }
}

/// A thread found by searchThreadTitles (`ThreadSearchResult`).
public struct ThreadSearchResult: Codable, Hashable, Sendable {
    /// The thread's id.
    public var id: String
    /// Its title.
    public var title: String
    /// Its channel.
    public var channelID: String
    /// The channel's name.
    public var channelName: String
    /// The space's name.
    public var spaceName: String
    /// Whether the caller can write in it.
    public var canWrite: Bool

    /// Makes a result.
    /// - Parameters:
    ///   - id: the thread.
    ///   - title: its title.
    ///   - channelID: its channel.
    ///   - channelName: the channel's name.
    ///   - spaceName: the space's name.
    ///   - canWrite: whether the caller can write.
    public init(id: String, title: String, channelID: String, channelName: String, spaceName: String, canWrite: Bool) {
        self.id = id
        self.title = title
        self.channelID = channelID
        self.channelName = channelName
        self.spaceName = spaceName
        self.canWrite = canWrite
    }

    private enum CodingKeys: String, CodingKey {
        case id, title
        case channelID = "channel_id"
        case channelName = "channel_name"
        case spaceName = "space_name"
        case canWrite = "can_write"
    }
}
