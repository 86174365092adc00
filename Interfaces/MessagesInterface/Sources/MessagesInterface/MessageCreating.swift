public import HTTPInterface
public import ShareCore

/// Creates messages on the server: what the ``ShareSending`` implementation
/// needs once the attachments are uploaded, and the instance limits it checks.
public protocol MessageCreating: Sendable {
    /// createMessage: a message in a thread or a channel. A replay (`200`)
    /// is a success with ``SentMessage/replayed`` set.
    /// - Parameters:
    ///   - target: a thread or a channel (a new post goes to ``createThread(inChannel:title:clientMsgID:text:uploadIDs:cancellation:)``).
    ///   - clientMsgID: the idempotency key.
    ///   - text: the text.
    ///   - uploadIDs: the completed uploads to attach.
    ///   - cancellation: cancels the request.
    /// - Returns: the message.
    /// - Throws: ``SendError``.
    func createMessage(
        in target: ShareTarget, clientMsgID: UUIDv7, text: String, uploadIDs: [String],
        cancellation: HTTPCancellation?
    ) async throws(SendError) -> SentMessage

    /// createThread: a new post in a forum channel with its first message.
    /// - Parameters:
    ///   - channelID: the forum channel.
    ///   - title: the post's title.
    ///   - clientMsgID: the idempotency key of the first message.
    ///   - text: the first message's text.
    ///   - uploadIDs: the completed uploads to attach.
    ///   - cancellation: cancels the request.
    /// - Returns: the first message.
    /// - Throws: ``SendError``.
    func createThread(
        inChannel channelID: String, title: String, clientMsgID: UUIDv7, text: String, uploadIDs: [String],
        cancellation: HTTPCancellation?
    ) async throws(SendError) -> SentMessage

    /// getInstanceLimits: the limits and accepted content types the server announces.
    /// - Parameter cancellation: cancels the request.
    /// - Returns: the limits.
    /// - Throws: ``SendError``.
    func instanceLimits(cancellation: HTTPCancellation?) async throws(SendError) -> InstanceLimits
}

extension MessageCreating {
    /// getInstanceLimits without a cancellation handle (task cancellation still works).
    /// - Returns: the limits.
    /// - Throws: ``SendError``.
    public func instanceLimits() async throws(SendError) -> InstanceLimits {
        try await instanceLimits(cancellation: nil)
    }
}
