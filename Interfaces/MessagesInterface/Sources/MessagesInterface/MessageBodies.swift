public import ShareKitWireContract

/// The body of createMessage (to a thread or a channel) and the
/// `first_message` of createThread: the wire contract's type, under the
/// name this interface has always given it.
public typealias CreateMessageBody = MessageCreate

/// The body of createThread (a new post in a forum channel with its first
/// message): the wire contract's type.
public typealias CreateThreadBody = ThreadCreate

/// The answer of createMessage and createThread: `{"message": Message}`,
/// the wire contract's type. Its decoder is the lenient one this client
/// always had: only `id`, `channel_id` and each attachment's `upload_id`
/// are required (``ShareKitWireContract/MessageBody``).
public typealias MessageAnswer = MessageEnvelope

extension MessageEnvelope {
    /// A message as the server describes it, under its old name here.
    public typealias Message = MessageBody
    /// An attachment of a message, under its old name here.
    public typealias Attachment = AttachmentBody

    /// The message as a sender reports it.
    /// - Parameter replayed: whether the answer was a replay of an earlier delivery.
    /// - Returns: the sent message.
    public func sentMessage(replayed: Bool) -> SentMessage {
        SentMessage(
            messageID: message.id, threadID: message.threadID, channelID: message.channelID, replayed: replayed,
            attachments: message.attachments.map {
                SentAttachment(
                    uploadID: $0.uploadID, fileName: $0.fileName, size: $0.size, sha256: $0.sha256,
                    digestAlgorithm: $0.digestAlgorithm)
            })
    }
}

/// The answer of `GET /api/v1/instance/limits`: the wire contract's type
/// (`upload_part_size`, `recent_targets` and `accepted_content_types` may
/// be absent; every member present must have its type).
public typealias InstanceLimitsAnswer = ShareKitWireContract.InstanceLimits

extension ShareKitWireContract.InstanceLimits {
    /// The limits, or nil when a number is out of its range (a size or a
    /// count that is not positive): a limit that cannot be right is not used.
    public var limits: ShareKitMessagesInterface.InstanceLimits? {
        guard fileMaxUploadBytes > 0, messageMaxAttachments >= 0 else { return nil }
        if let uploadPartSize, uploadPartSize <= 0 { return nil }
        return ShareKitMessagesInterface.InstanceLimits(
            fileMaxUploadBytes: fileMaxUploadBytes, messageMaxAttachments: messageMaxAttachments,
            uploadPartSize: uploadPartSize, recentTargets: recentTargets.map { max(0, $0) },
            acceptedContentTypes: acceptedContentTypes,
            uploadDigestAlgorithms: uploadDigestAlgorithms.map(Self.knownDigestAlgorithms))
    }

    /// The digest forms this client knows, in the server's order: a hostile
    /// list (long, odd names) shrinks to at most these two names.
    private static func knownDigestAlgorithms(_ listed: [String]) -> [String] {
        let known = [UploadDigestAlgorithm.sha256, UploadDigestAlgorithm.sha256Composite]
        return known.filter(listed.contains)
    }
}
