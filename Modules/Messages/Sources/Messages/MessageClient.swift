public import ShareKitCore
public import ShareKitHTTPInterface
public import ShareKitMessagesInterface
public import ShareKitServerAPIInterface
import ShareKitWireContract

/// createMessage (to a thread or a channel), createThread (a new post with
/// its `first_message`) and getInstanceLimits through the authorized API
/// client. A `200` replay is success with
/// ``ShareKitMessagesInterface/SentMessage/replayed`` set; every failure is the
/// API client's ``ShareKitServerAPIInterface/APIError`` as it classified it.
public struct MessageClient: MessageCreating {
    private let api: any AuthorizedAPIClient

    /// - Parameter api: the session's authorized client for the server.
    public init(api: any AuthorizedAPIClient) {
        self.api = api
    }

    /// `POST /api/v1/threads/{id}/messages` or `POST /api/v1/channels/{id}/messages`.
    /// - Parameters:
    ///   - target: a thread or a channel.
    ///   - clientMsgID: the idempotency key.
    ///   - text: the text.
    ///   - uploadIDs: the completed uploads to attach.
    ///   - cancellation: cancels the request.
    /// - Returns: the message.
    /// - Throws: ``ShareKitServerAPIInterface/APIError``; `.failed(.invalidRequest)`
    ///   for a new-post target.
    public func createMessage(
        in target: ShareTarget, clientMsgID: UUIDv7, text: String, uploadIDs: [String],
        cancellation: HTTPCancellation? = nil
    ) async throws(APIError) -> SentMessage {
        let route: Route
        switch target.kind {
        case .thread: route = .createMessage(threadID: target.id)
        case .channel: route = .createChannelMessage(channelID: target.id)
        case .newPost:
            throw .failed(.invalidRequest("a new post is created with createThread, not createMessage"))
        }
        let body = CreateMessageBody(clientMsgID: clientMsgID.description, text: text, attachments: uploadIDs)
        // One name for both timelines in messages and logs, as before the contract named them apart.
        return try await post(route, name: "createMessage", body: body, cancellation: cancellation)
    }

    /// `POST /api/v1/channels/{id}/threads` with `{title, first_message}`.
    /// - Parameters:
    ///   - channelID: the forum channel.
    ///   - title: the post's title.
    ///   - clientMsgID: the idempotency key of the first message.
    ///   - text: the first message's text.
    ///   - uploadIDs: the completed uploads to attach.
    ///   - cancellation: cancels the request.
    /// - Returns: the first message.
    /// - Throws: ``ShareKitServerAPIInterface/APIError``.
    public func createThread(
        inChannel channelID: String, title: String, clientMsgID: UUIDv7, text: String, uploadIDs: [String],
        cancellation: HTTPCancellation? = nil
    ) async throws(APIError) -> SentMessage {
        let body = CreateThreadBody(
            title: title,
            firstMessage: CreateMessageBody(clientMsgID: clientMsgID.description, text: text, attachments: uploadIDs))
        return try await post(.createThread(channelID: channelID), body: body, cancellation: cancellation)
    }

    /// `GET /api/v1/instance/limits`: the limits and accepted content types
    /// the server announces (the daemon keeps them in the shared state; the
    /// CLI asks itself when they are not there yet).
    /// - Parameter cancellation: cancels the request.
    /// - Returns: the limits.
    /// - Throws: ``ShareKitServerAPIInterface/APIError``; limits out of range are an
    ///   unreadable answer (retryable: the server may be fixed).
    public func instanceLimits(cancellation: HTTPCancellation? = nil) async throws(APIError)
        -> ShareKitMessagesInterface.InstanceLimits
    {
        let request = APIRequest(.getInstanceLimits)
        let answer: InstanceLimitsAnswer
        answer = try await api.send(
            request, decoding: InstanceLimitsAnswer.self, options: APICallOptions(cancellation: cancellation)
        ).value
        guard let limits = answer.limits else {
            throw .retryable(
                APIRetry(
                    kind: .unreadableAnswer(status: 200),
                    message: "getInstanceLimits: " + MessagesText.table.text(.limitsOutOfRange, in: .english)))
        }
        return limits
    }

    // MARK: - Request

    private func post<Body: Encodable>(
        _ route: Route, name: String? = nil, body: Body, cancellation: HTTPCancellation?
    ) async throws(APIError) -> SentMessage {
        let request = try APIRequest(route, name: name, json: body)
        let (answer, response) = try await api.send(
            request, decoding: MessageAnswer.self, options: APICallOptions(cancellation: cancellation))
        let replayed = response.status == 200 || response.header("Idempotent-Replayed")?.lowercased() == "true"
        return answer.sentMessage(replayed: replayed)
    }
}
