public import HTTPInterface
public import ServerAPIInterface
public import ShareCore

/// Creates messages on the server: what the delivery engine needs once the
/// attachments are uploaded, and the instance limits it checks. Failures
/// are the API client's classification as it is (``ServerAPIInterface/APIError``);
/// the delivery engine reads what one means for a share.
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
    /// - Throws: ``ServerAPIInterface/APIError``.
    func createMessage(
        in target: ShareTarget, clientMsgID: UUIDv7, text: String, uploadIDs: [String],
        cancellation: HTTPCancellation?
    ) async throws(APIError) -> SentMessage

    /// createThread: a new post in a forum channel with its first message.
    /// - Parameters:
    ///   - channelID: the forum channel.
    ///   - title: the post's title.
    ///   - clientMsgID: the idempotency key of the first message.
    ///   - text: the first message's text.
    ///   - uploadIDs: the completed uploads to attach.
    ///   - cancellation: cancels the request.
    /// - Returns: the first message.
    /// - Throws: ``ServerAPIInterface/APIError``.
    func createThread(
        inChannel channelID: String, title: String, clientMsgID: UUIDv7, text: String, uploadIDs: [String],
        cancellation: HTTPCancellation?
    ) async throws(APIError) -> SentMessage

    /// getInstanceLimits: the limits and accepted content types the server announces.
    /// - Parameter cancellation: cancels the request.
    /// - Returns: the limits.
    /// - Throws: ``ServerAPIInterface/APIError``.
    func instanceLimits(cancellation: HTTPCancellation?) async throws(APIError) -> InstanceLimits
}

extension MessageCreating {
    /// getInstanceLimits without a cancellation handle (task cancellation still works).
    /// - Returns: the limits.
    /// - Throws: ``ServerAPIInterface/APIError``.
    public func instanceLimits() async throws(APIError) -> InstanceLimits {
        try await instanceLimits(cancellation: nil)
    }
}
