import Foundation
public import HTTPInterface
import HTTPTypes
public import MessagesInterface
public import SessionsInterface
public import ShareCore

/// createMessage (to a thread or a channel) and createThread (a new post
/// with its `first_message`) over a DPoP-signing client. A `200` replay is
/// success with ``MessagesInterface/SentMessage/replayed`` set; every
/// failure is a classified ``MessagesInterface/SendError``.
public struct MessageClient: Sendable {
    private let serverOrigin: String
    private let client: any DPoPSigningHTTPClient
    private let tokens: any AccessTokenProvider
    private let timeouts: HTTPTimeouts

    /// - Parameters:
    ///   - serverOrigin: `http(s)://host:port` of the server.
    ///   - client: the DPoP-signing client.
    ///   - tokens: the session's access tokens.
    ///   - timeouts: the time limits of each request.
    public init(
        serverOrigin: String, client: any DPoPSigningHTTPClient, tokens: any AccessTokenProvider,
        timeouts: HTTPTimeouts = HTTPTimeouts()
    ) {
        self.serverOrigin = serverOrigin
        self.client = client
        self.tokens = tokens
        self.timeouts = timeouts
    }

    /// `POST /api/v1/threads/{id}/messages` or `POST /api/v1/channels/{id}/messages`.
    public func createMessage(
        in target: ShareTarget, clientMsgID: UUIDv7, text: String, uploadIDs: [String],
        cancellation: HTTPCancellation? = nil
    ) async throws(SendError) -> SentMessage {
        let path: String
        switch target.kind {
        case .thread: path = "/api/v1/threads/\(Self.escape(target.id))/messages"
        case .channel: path = "/api/v1/channels/\(Self.escape(target.id))/messages"
        case .newPost:
            throw .rejected(
                code: "invalid_target", message: "a new post is created with createThread, not createMessage")
        }
        let body = Self.messageBody(clientMsgID: clientMsgID, text: text, uploadIDs: uploadIDs)
        return try await post(path, body: body, cancellation: cancellation)
    }

    /// `POST /api/v1/channels/{id}/threads` with `{title, first_message}`.
    public func createThread(
        inChannel channelID: String, title: String, clientMsgID: UUIDv7, text: String, uploadIDs: [String],
        cancellation: HTTPCancellation? = nil
    ) async throws(SendError) -> SentMessage {
        let body: [String: Any] = [
            "title": title,
            "first_message": Self.messageBody(clientMsgID: clientMsgID, text: text, uploadIDs: uploadIDs),
        ]
        return try await post(
            "/api/v1/channels/\(Self.escape(channelID))/threads", body: body, cancellation: cancellation)
    }

    // MARK: - Request

    private static func messageBody(clientMsgID: UUIDv7, text: String, uploadIDs: [String]) -> [String: Any] {
        ["client_msg_id": clientMsgID.description, "text": text, "attachments": uploadIDs]
    }

    private static func escape(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/")))
            ?? id
    }

    private func post(_ path: String, body: [String: Any], cancellation: HTTPCancellation?) async throws(SendError)
        -> SentMessage
    {
        let data = (try? JSONSerialization.data(withJSONObject: body)) ?? Data()
        var request = HTTPClientRequest(method: .post, url: serverOrigin + path, body: .bytes(Array(data)))
        request.headers.set("Content-Type", "application/json")
        let options = HTTPRequestOptions(timeouts: timeouts, cancellation: cancellation)
        var refreshed = false
        while true {
            if cancellation?.isCancelled == true { throw .cancelled }
            let token = try await accessToken()
            let response: HTTPClientResponse
            do {
                response = try await client.send(request, accessToken: token.plainText, options: options)
            } catch {
                throw Self.classify(error)
            }
            if response.status == 401 {
                let problem = HTTPResponseProblem(response)
                // Any refusal once: an expired or rotated token is refreshed;
                // a revoked session makes the refresh fail, which deletes the
                // family's tokens (the send then goes to the inbox).
                if !refreshed {
                    refreshed = true
                    await tokens.reportRejected(token: token)
                    continue
                }
                throw .retryable(.sessionUnavailable("the server refused the session (\(problem.code))"))
            }
            guard response.isSuccess else { throw Self.classify(response) }
            guard let sent = Self.sentMessage(response) else {
                throw .retryable(.serverError(status: response.status, code: "unreadable_answer"))
            }
            return sent
        }
    }

    /// `GET /api/v1/instance/limits`: the limits and accepted content types
    /// the server announces (the daemon keeps them in the shared state; the
    /// CLI asks itself when they are not there yet).
    /// - Parameter cancellation: cancels the request.
    /// - Returns: the limits.
    /// - Throws: ``MessagesInterface/SendError``: `.retryable` for network,
    ///   session and server problems, `.rejected` for an unreadable answer.
    public func instanceLimits(cancellation: HTTPCancellation? = nil) async throws(SendError) -> InstanceLimits {
        let request = HTTPClientRequest(method: .get, url: serverOrigin + "/api/v1/instance/limits")
        let options = HTTPRequestOptions(timeouts: timeouts, cancellation: cancellation)
        var refreshed = false
        while true {
            let token = try await accessToken()
            let response: HTTPClientResponse
            do {
                response = try await client.send(request, accessToken: token.plainText, options: options)
            } catch {
                throw Self.classify(error)
            }
            if response.status == 401 {
                if !refreshed {
                    refreshed = true
                    await tokens.reportRejected(token: token)
                    continue
                }
                throw .retryable(
                    .sessionUnavailable("the server refused the session (\(HTTPResponseProblem(response).code))"))
            }
            guard response.isSuccess else { throw Self.classify(response) }
            guard let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any],
                let maxBytes = (object["file_max_upload_bytes"] as? NSNumber)?.int64Value,
                let maxAttachments = (object["message_max_attachments"] as? NSNumber)?.intValue
            else {
                throw .rejected(code: "unreadable_answer", message: "the server's limits could not be read")
            }
            return InstanceLimits(
                fileMaxUploadBytes: maxBytes, messageMaxAttachments: maxAttachments,
                uploadPartSize: (object["upload_part_size"] as? NSNumber)?.int64Value,
                recentTargets: (object["recent_targets"] as? NSNumber)?.intValue,
                acceptedContentTypes: object["accepted_content_types"] as? [String])
        }
    }

    private func accessToken() async throws(SendError) -> AccessToken {
        do {
            return try await tokens.currentAccessToken()
        } catch {
            switch error {
            case .cancelled: throw .cancelled
            case .unavailable, .retryable, .failed: throw .retryable(.sessionUnavailable(error.description))
            }
        }
    }

    // MARK: - Classification

    /// A transport failure: retryable when the network or the server may come back.
    static func classify(_ error: HTTPClientError) -> SendError {
        switch error {
        case .cancelled: return .cancelled
        case .timedOut: return .retryable(.timeout(error.description))
        case .hostNotFound, .cannotConnect, .connectionLost, .protocolError, .transportFailure:
            return .retryable(.noNetwork(error.description))
        case .invalidURL, .invalidRequest, .tlsFailure, .fileUnreadable, .fileChanged, .tooManyRedirects,
            .responseTooLarge, .signingFailed:
            return .rejected(code: "request_failed", message: "the request could not be made: \(error.description)")
        }
    }

    /// An unsuccessful answer: `408`, `429`, `5xx` are retryable, every other status is a refusal.
    static func classify(_ response: HTTPClientResponse) -> SendError {
        let problem = HTTPResponseProblem(response)
        switch response.status {
        case 429:
            let seconds = response.headers["Retry-After"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            return .retryable(.rateLimited(retryAfterSeconds: seconds))
        case 408, 500...599:
            return .retryable(.serverError(status: response.status, code: problem.code))
        default:
            return .rejected(code: problem.code, message: Self.explain(status: response.status, problem))
        }
    }

    /// A sentence a person understands, with the server's own words.
    private static func explain(status: Int, _ problem: HTTPResponseProblem) -> String {
        let lead: String
        switch (status, problem.code) {
        case (403, "write_forbidden"): lead = "you can no longer write here"
        case (403, _): lead = "you are not allowed to do this"
        case (404, _): lead = "the conversation no longer exists or you cannot see it"
        case (413, _): lead = "it is too large"
        case (415, _): lead = "this kind of file is not accepted"
        case (422, "client_msg_id_conflict"): lead = "a different message was already sent with the same id"
        case (422, "too_many_attachments"): lead = "it has too many attachments"
        case (422, "not_a_forum"): lead = "new posts can only be created in forum channels"
        case (422, "empty_message"): lead = "the message is empty"
        case (422, "invalid_attachment"): lead = "an attachment is not usable"
        default: lead = "the server refused it (\(status))"
        }
        return "\(lead). \(problem.message)"
    }

    // MARK: - Answer

    static func sentMessage(_ response: HTTPClientResponse) -> SentMessage? {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any],
            let message = object["message"] as? [String: Any], let id = message["id"] as? String,
            let channelID = message["channel_id"] as? String
        else { return nil }
        let attachments = (message["attachments"] as? [[String: Any]] ?? []).compactMap { a -> SentAttachment? in
            guard let uploadID = a["upload_id"] as? String else { return nil }
            return SentAttachment(
                uploadID: uploadID, fileName: a["file_name"] as? String ?? "",
                size: (a["size"] as? NSNumber)?.int64Value ?? 0, sha256: a["sha256"] as? String ?? "")
        }
        let replayed =
            response.status == 200
            || response.headers["Idempotent-Replayed"]?.lowercased() == "true"
        return SentMessage(
            messageID: id, threadID: message["thread_id"] as? String, channelID: channelID, replayed: replayed,
            attachments: attachments)
    }
}
