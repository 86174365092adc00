public import ShareKitCore

/// One share in the daemon's outbox, keyed by the `client_msg_id` fixed when
/// the person pressed send, so every attempt is the same message to the server.
///
/// Times are milliseconds since 1970-01-01 UTC.
public struct OutboxItem: Hashable, Sendable {
    /// The message's idempotency key.
    public var clientMsgID: UUIDv7
    /// The origin of the server the share is for.
    public var serverOrigin: String
    /// Where the share goes.
    public var target: ShareTarget
    /// The message text.
    public var text: String
    /// The title of a new forum post.
    public var title: String?
    /// The files, in order.
    public var attachments: [OutboxAttachment]
    /// The state.
    public var state: OutboxState
    /// Attempts made so far (those of the CLI before the takeover included).
    public var attempts: Int
    /// When the item is due next (for ``OutboxState/pending``).
    public var nextAttemptAt: Int64
    /// Why the last attempt did not send it, for a person.
    public var lastError: String?
    /// The problem code of a rejection (``OutboxState/failed``).
    public var failureCode: String?
    /// The server's message id once sent.
    public var messageID: String?
    /// The server answered with the original message (a replay) when it was sent.
    public var replayed: Bool
    /// When the person pressed send.
    public var createdAt: Int64
    /// When the item last changed.
    public var updatedAt: Int64

    /// Makes an item; a new one is ``OutboxState/pending`` and due at `nextAttemptAt`.
    public init(
        clientMsgID: UUIDv7, serverOrigin: String, target: ShareTarget, text: String, title: String? = nil,
        attachments: [OutboxAttachment] = [], state: OutboxState = .pending, attempts: Int = 0,
        nextAttemptAt: Int64, lastError: String? = nil, failureCode: String? = nil, messageID: String? = nil,
        replayed: Bool = false, createdAt: Int64, updatedAt: Int64? = nil
    ) {
        self.clientMsgID = clientMsgID
        self.serverOrigin = serverOrigin
        self.target = target
        self.text = text
        self.title = title
        self.attachments = attachments
        self.state = state
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.lastError = lastError
        self.failureCode = failureCode
        self.messageID = messageID
        self.replayed = replayed
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
    }
}
