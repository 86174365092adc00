public import HTTPInterface
public import MessagesInterface
public import ServerAPIInterface
public import ShareCore
import WireContract

/// createMessage (to a thread or a channel), createThread (a new post with
/// its `first_message`) and getInstanceLimits through the authorized API
/// client. A `200` replay is success with
/// ``MessagesInterface/SentMessage/replayed`` set; every failure is a
/// classified ``MessagesInterface/SendError``.
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
    /// - Throws: ``MessagesInterface/SendError``; `.rejected` with
    ///   `invalid_target` for a new-post target.
    public func createMessage(
        in target: ShareTarget, clientMsgID: UUIDv7, text: String, uploadIDs: [String],
        cancellation: HTTPCancellation? = nil
    ) async throws(SendError) -> SentMessage {
        let route: Route
        switch target.kind {
        case .thread: route = .createMessage(threadID: target.id)
        case .channel: route = .createChannelMessage(channelID: target.id)
        case .newPost:
            throw .rejected(
                code: "invalid_target", message: "a new post is created with createThread, not createMessage")
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
    /// - Throws: ``MessagesInterface/SendError``.
    public func createThread(
        inChannel channelID: String, title: String, clientMsgID: UUIDv7, text: String, uploadIDs: [String],
        cancellation: HTTPCancellation? = nil
    ) async throws(SendError) -> SentMessage {
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
    /// - Throws: ``MessagesInterface/SendError``: `.retryable` for network,
    ///   session and server problems, `.rejected` for limits out of range.
    public func instanceLimits(cancellation: HTTPCancellation? = nil) async throws(SendError)
        -> MessagesInterface.InstanceLimits
    {
        let request = APIRequest(.getInstanceLimits)
        let answer: InstanceLimitsAnswer
        do {
            answer = try await api.send(
                request, decoding: InstanceLimitsAnswer.self, options: APICallOptions(cancellation: cancellation)
            ).value
        } catch {
            throw Self.classify(error)
        }
        guard let limits = answer.limits else {
            throw .rejected(
                code: "unreadable_answer", message: MessagesText.table.text(.limitsOutOfRange, in: .english))
        }
        return limits
    }

    // MARK: - Request

    private func post<Body: Encodable>(
        _ route: Route, name: String? = nil, body: Body, cancellation: HTTPCancellation?
    ) async throws(SendError) -> SentMessage {
        do {
            let request = try APIRequest(route, name: name, json: body)
            let (answer, response) = try await api.send(
                request, decoding: MessageAnswer.self, options: APICallOptions(cancellation: cancellation))
            let replayed =
                response.status == 200 || response.header("Idempotent-Replayed")?.lowercased() == "true"
            return answer.sentMessage(replayed: replayed)
        } catch {
            throw Self.classify(error)
        }
    }

    // MARK: - Classification

    /// What a failed call means for the share: passing failures keep it for
    /// later (with the server's `Retry-After`), an ended session keeps it
    /// for a new session, a refusal is explained in a person's words.
    /// - Parameter error: the API client's error.
    /// - Returns: the send error.
    public static func classify(_ error: APIError) -> SendError {
        switch error {
        case .cancelled:
            return .cancelled
        case .sessionEnded(let why):
            return .retryable(.sessionUnavailable(why))
        case .failed(let transport):
            return .rejected(
                code: "request_failed",
                message: MessagesText.table.text(.requestFailed, ["reason": transport.summary], in: .english))
        case .refused(let refusal):
            return .rejected(code: refusal.code, message: explain(refusal))
        case .retryable(let retry):
            switch retry.kind {
            case .network: return .retryable(.noNetwork(retry.message))
            case .timeout: return .retryable(.timeout(retry.message))
            case .session: return .retryable(.sessionUnavailable(retry.message))
            case .unreadableAnswer(let status):
                return .retryable(.serverError(status: status, code: "unreadable_answer"))
            case .status(429, _):
                return .retryable(.rateLimited(retryAfterSeconds: retry.retryAfterSeconds))
            case .status(let status, let code):
                return .retryable(
                    .serverError(status: status, code: code, retryAfterSeconds: retry.retryAfterSeconds))
            }
        }
    }

    /// A sentence a person understands, with the server's own words, in
    /// English (kept in the manifest and the outbox); `SendError.localizedRejection`
    /// shows it in the person's language.
    private static func explain(_ refusal: APIRefusal) -> String {
        SendError.refusalMessage(status: refusal.status, code: refusal.code, detail: refusal.message)
    }
}
