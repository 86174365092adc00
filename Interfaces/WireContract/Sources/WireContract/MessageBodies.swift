// The bodies of the message operations: listMessages,
// listChannelMessages, createMessage, createChannelMessage, createThread.

/// The body of createMessage and createChannelMessage (`MessageCreate`).
///
/// `text` and `attachments` are optional and may be null: the server
/// treats absent, null and empty alike and then asks for one of them.
public struct MessageCreate: Codable, Hashable, Sendable {
    /// The client's idempotency key, the same for every retry.
    public var clientMsgID: String
    /// The text, or nil.
    public var text: String?
    /// Upload ids of complete uploads, or nil.
    public var attachments: [String]?

    /// Makes a body.
    /// - Parameters:
    ///   - clientMsgID: the idempotency key.
    ///   - text: the text.
    ///   - attachments: the upload ids.
    public init(clientMsgID: String, text: String?, attachments: [String]?) {
        self.clientMsgID = clientMsgID
        self.text = text
        self.attachments = attachments
    }

    private enum CodingKeys: String, CodingKey {
        case clientMsgID = "client_msg_id"
        case text, attachments
    }
}

/// The body of createThread (`ThreadCreate`).
public struct ThreadCreate: Codable, Hashable, Sendable {
    /// The title.
    public var title: String
    /// The thread's first message.
    public var firstMessage: MessageCreate

    /// Makes a body.
    /// - Parameters:
    ///   - title: the title.
    ///   - firstMessage: the first message.
    public init(title: String, firstMessage: MessageCreate) {
        self.title = title
        self.firstMessage = firstMessage
    }

    private enum CodingKeys: String, CodingKey {
        case title
        case firstMessage = "first_message"
    }
}

/// An attachment of a message (`Attachment`).
public struct AttachmentBody: Codable, Hashable, Sendable {
    /// The upload.
    public var uploadID: String
    /// Its file name.
    public var fileName: String
    /// Its content type.
    public var contentType: String
    /// Its size in bytes.
    public var size: Int64
    /// Its digest, 64 lowercase hex digits: the file's SHA-256, or the
    /// composite digest when ``digestAlgorithm`` says so.
    public var sha256: String
    /// ``UploadDigestAlgorithm/sha256Composite`` when ``sha256`` is the
    /// composite digest of the upload's parts; nil (left out) for the
    /// file's plain SHA-256.
    public var digestAlgorithm: String?

    /// Makes an attachment with the file's plain SHA-256.
    /// - Parameters:
    ///   - uploadID: the upload.
    ///   - fileName: the file name.
    ///   - contentType: the content type.
    ///   - size: the size.
    ///   - sha256: the digest.
    public init(uploadID: String, fileName: String, contentType: String, size: Int64, sha256: String) {
        self.init(
            uploadID: uploadID, fileName: fileName, contentType: contentType, size: size, sha256: sha256,
            digestAlgorithm: nil)
    }

    /// Makes an attachment.
    /// - Parameters:
    ///   - uploadID: the upload.
    ///   - fileName: the file name.
    ///   - contentType: the content type.
    ///   - size: the size.
    ///   - sha256: the digest.
    ///   - digestAlgorithm: its form when not the plain SHA-256.
    public init(
        uploadID: String, fileName: String, contentType: String, size: Int64, sha256: String,
        digestAlgorithm: String?
    ) {
        self.uploadID = uploadID
        self.fileName = fileName
        self.contentType = contentType
        self.size = size
        self.sha256 = sha256
        self.digestAlgorithm = digestAlgorithm
    }

    private enum CodingKeys: String, CodingKey {
        case uploadID = "upload_id"
        case fileName = "file_name"
        case contentType = "content_type"
        case size, sha256
        case digestAlgorithm = "digest_algorithm"
    }

    /// Decodes an attachment as the clients always have: `upload_id` is
    /// required; `file_name`, `size` and `sha256` may be absent or null
    /// (empty, zero, empty) but not of another type; a size below zero is
    /// zero (a hostile server's number is never used as a length);
    /// `content_type` is not read, so anything there is taken as empty.
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` when `upload_id` is missing or a read member has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        uploadID = try container.decode(String.self, forKey: .uploadID)
        fileName = try container.decodeIfPresent(String.self, forKey: .fileName) ?? ""
        contentType = (try? container.decodeIfPresent(String.self, forKey: .contentType)) ?? ""
        size = max(0, try container.decodeIfPresent(Int64.self, forKey: .size) ?? 0)
        sha256 = try container.decodeIfPresent(String.self, forKey: .sha256) ?? ""
        digestAlgorithm = (try? container.decodeIfPresent(String.self, forKey: .digestAlgorithm)) ?? nil
    }
}

/// A message (`Message`).
public struct MessageBody: Codable, Hashable, Sendable {
    /// The server's id.
    public var id: String
    /// The sender's idempotency key.
    public var clientMsgID: String
    /// The thread, or nil on a channel's main timeline (written as `null`).
    public var threadID: String?
    /// The channel.
    public var channelID: String
    /// The sender's username.
    public var sender: String
    /// The text.
    public var text: String
    /// The attachments, in order.
    public var attachments: [AttachmentBody]
    /// When (RFC 3339).
    public var createdAt: String
    /// Where a browser opens it, or nil (left out).
    public var webURL: String?

    /// Makes a message.
    /// - Parameters:
    ///   - id: the id.
    ///   - clientMsgID: the idempotency key.
    ///   - threadID: the thread, or nil.
    ///   - channelID: the channel.
    ///   - sender: the username.
    ///   - text: the text.
    ///   - attachments: the attachments.
    ///   - createdAt: when.
    ///   - webURL: the web link, or nil.
    public init(
        id: String, clientMsgID: String, threadID: String?, channelID: String, sender: String, text: String,
        attachments: [AttachmentBody], createdAt: String, webURL: String?
    ) {
        self.id = id
        self.clientMsgID = clientMsgID
        self.threadID = threadID
        self.channelID = channelID
        self.sender = sender
        self.text = text
        self.attachments = attachments
        self.createdAt = createdAt
        self.webURL = webURL
    }

    private enum CodingKeys: String, CodingKey {
        case id, sender, text, attachments
        case clientMsgID = "client_msg_id"
        case threadID = "thread_id"
        case channelID = "channel_id"
        case createdAt = "created_at"
        case webURL = "web_url"
    }

    /// Decodes a message as the clients always have: `id` and `channel_id`
    /// are required; `thread_id` and `attachments` may be absent or null
    /// (nil, none) but not of another type; the members a client does not
    /// read (`client_msg_id`, `sender`, `text`, `created_at`, `web_url`)
    /// are taken as empty or nil when missing or of another type, so a
    /// server's oddity there never fails a delivered message.
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` when `id` or `channel_id` is missing or a read member has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        clientMsgID = (try? container.decodeIfPresent(String.self, forKey: .clientMsgID)) ?? ""
        threadID = try container.decodeIfPresent(String.self, forKey: .threadID)
        channelID = try container.decode(String.self, forKey: .channelID)
        sender = (try? container.decodeIfPresent(String.self, forKey: .sender)) ?? ""
        text = (try? container.decodeIfPresent(String.self, forKey: .text)) ?? ""
        attachments = try container.decodeIfPresent([AttachmentBody].self, forKey: .attachments) ?? []
        createdAt = (try? container.decodeIfPresent(String.self, forKey: .createdAt)) ?? ""
        webURL = (try? container.decodeIfPresent(String.self, forKey: .webURL)) ?? nil
    }

    /// Encodes the message: `thread_id` is `null` when absent, `web_url` is left out.
    /// - Parameter encoder: the encoder.
    /// - Throws: what the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(attachments, forKey: .attachments)
        try container.encode(channelID, forKey: .channelID)
        try container.encode(clientMsgID, forKey: .clientMsgID)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(id, forKey: .id)
        try container.encode(sender, forKey: .sender)
        try container.encode(text, forKey: .text)
        try container.encode(threadID, forKey: .threadID)
        try container.encodeIfPresent(webURL, forKey: .webURL)
    }
}

/// The answer of createMessage and createChannelMessage (`MessageEnvelope`).
public struct MessageEnvelope: Codable, Hashable, Sendable {
    /// The message.
    public var message: MessageBody

    /// Makes an answer.
    /// - Parameter message: the message.
    public init(message: MessageBody) { self.message = message }
}

/// A page of listMessages or listChannelMessages (`MessageList`).
public struct MessageList: Codable, Hashable, Sendable {
    /// The messages, oldest first.
    public var messages: [MessageBody]
    /// The `after` of the next page, or nil on the last page (written as `null`).
    public var next: String?

    /// Makes a page.
    /// - Parameters:
    ///   - messages: the messages.
    ///   - next: the next cursor, or nil.
    public init(messages: [MessageBody], next: String?) {
        self.messages = messages
        self.next = next
    }

    private enum CodingKeys: String, CodingKey { case messages, next }

    /// Encodes the page; `next` is `null` on the last page.
    /// - Parameter encoder: the encoder.
    /// - Throws: what the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(messages, forKey: .messages)
        try container.encode(next, forKey: .next)
    }
}

/// A thread (`Thread`).
public struct ThreadBody: Codable, Hashable, Sendable {
    /// The thread's id.
    public var id: String
    /// Its channel.
    public var channelID: String
    /// Its title.
    public var title: String
    /// When it was made (RFC 3339).
    public var createdAt: String

    /// Makes a thread.
    /// - Parameters:
    ///   - id: the id.
    ///   - channelID: the channel.
    ///   - title: the title.
    ///   - createdAt: when.
    public init(id: String, channelID: String, title: String, createdAt: String) {
        self.id = id
        self.channelID = channelID
        self.title = title
        self.createdAt = createdAt
    }

    private enum CodingKeys: String, CodingKey {
        case id, title
        case channelID = "channel_id"
        case createdAt = "created_at"
    }
}

/// The answer of createThread (`ThreadCreated`).
public struct ThreadCreated: Codable, Hashable, Sendable {
    /// The new thread.
    public var thread: ThreadBody
    /// Its first message.
    public var message: MessageBody

    /// Makes an answer.
    /// - Parameters:
    ///   - thread: the thread.
    ///   - message: the first message.
    public init(thread: ThreadBody, message: MessageBody) {
        self.thread = thread
        self.message = message
    }
}
