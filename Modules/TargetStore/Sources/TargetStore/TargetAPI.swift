import Foundation
import HTTPInterface
import HTTPTypes
import SessionsInterface
import TargetStoreInterface

/// listSpaces and searchThreadTitles over a DPoP-signing client, every
/// failure turned into ``TargetStoreInterface/TargetError/unavailable(reason:retryable:)``.
struct TargetAPI: Sendable {
    let serverOrigin: String
    let client: any DPoPSigningHTTPClient
    let tokens: any AccessTokenProvider
    let timeouts: HTTPTimeouts

    /// A space of listSpaces.
    struct Space: Decodable, Sendable {
        var id: String
        var name: String
        var channels: [Channel]
    }

    /// A channel of a space in listSpaces.
    struct Channel: Decodable, Sendable {
        var id: String
        var name: String
        var kind: String
        var canWrite: Bool

        enum CodingKeys: String, CodingKey {
            case id, name, kind
            case canWrite = "can_write"
        }
    }

    /// A hit of searchThreadTitles.
    struct ThreadHit: Decodable, Sendable {
        var id: String
        var title: String
        var channelID: String
        var channelName: String
        var spaceName: String
        var canWrite: Bool

        enum CodingKeys: String, CodingKey {
            case id, title
            case channelID = "channel_id"
            case channelName = "channel_name"
            case spaceName = "space_name"
            case canWrite = "can_write"
        }
    }

    /// The server's largest `limit` for searchThreadTitles.
    static let maximumSearchLimit = 100

    /// `GET /api/v1/spaces`.
    func spaces() async throws(TargetError) -> [Space] {
        try await get("/api/v1/spaces", as: [Space].self)
    }

    /// `GET /api/v1/threads/search?q=&limit=`; `limit` is kept within 1 to 100.
    func searchThreads(_ query: String, limit: Int) async throws(TargetError) -> [ThreadHit] {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+?#")
        let q = query.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        let bounded = min(max(limit, 1), Self.maximumSearchLimit)
        return try await get("/api/v1/threads/search?q=\(q)&limit=\(bounded)", as: [ThreadHit].self)
    }

    /// Whether `GET /api/v1/threads/{id}/messages` finds the thread, and the
    /// channel of its first message when it has one.
    func probeThread(_ id: String) async throws(TargetError) -> (exists: Bool, channelID: String?) {
        struct Page: Decodable {
            struct Message: Decodable {
                var channelID: String
                enum CodingKeys: String, CodingKey { case channelID = "channel_id" }
            }
            var messages: [Message]
        }
        let escaped =
            id.addingPercentEncoding(
                withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/")))
            ?? id
        let response = try await send("/api/v1/threads/\(escaped)/messages")
        if response.status == 404 { return (false, nil) }
        let page: Page = try decode(response)
        return (true, page.messages.first?.channelID)
    }

    // MARK: - Request

    private func get<T: Decodable>(_ path: String, as type: T.Type) async throws(TargetError) -> T {
        try decode(try await send(path))
    }

    private func decode<T: Decodable>(_ response: HTTPClientResponse) throws(TargetError) -> T {
        guard response.isSuccess else { throw Self.classify(response) }
        do {
            return try JSONDecoder().decode(T.self, from: Data(response.body))
        } catch {
            throw .unavailable(reason: "the server's answer could not be read (\(response.status))", retryable: true)
        }
    }

    /// Sends a GET with the session's token; a `401 token_expired` or
    /// `invalid_token` is reported to the provider and the request sent once
    /// more, like every other sender does. Answers other than 401 are returned.
    private func send(_ path: String) async throws(TargetError) -> HTTPClientResponse {
        let request = HTTPClientRequest(method: .get, url: serverOrigin + path)
        let options = HTTPRequestOptions(timeouts: timeouts)
        var refreshed = false
        while true {
            let token = try await accessToken()
            let response: HTTPClientResponse
            do {
                response = try await client.send(request, accessToken: token.plainText, options: options)
            } catch {
                throw .unavailable(reason: error.description, retryable: error.isRetryable || error == .cancelled)
            }
            guard response.status == 401 else { return response }
            let problem = HTTPResponseProblem(response)
            if !refreshed, problem.code == "token_expired" || problem.code == "invalid_token" {
                refreshed = true
                await tokens.reportRejected(token: token)
                continue
            }
            throw .unavailable(
                reason: "the server refused the session (\(problem.code)); sign in again", retryable: false)
        }
    }

    private func accessToken() async throws(TargetError) -> AccessToken {
        do {
            return try await tokens.currentAccessToken()
        } catch {
            throw .unavailable(reason: error.description, retryable: error.isRetryable || error == .cancelled)
        }
    }

    /// An unsuccessful answer: `408`, `429`, `5xx` may pass; any other refusal needs a change first.
    static func classify(_ response: HTTPClientResponse) -> TargetError {
        let problem = HTTPResponseProblem(response)
        switch response.status {
        case 429:
            let wait = response.headers["Retry-After"].map { "; it asked to wait \($0) seconds" } ?? ""
            return .unavailable(reason: "the server is busy\(wait)", retryable: true)
        case 408, 500...599:
            return .unavailable(
                reason: "the server had a problem (\(response.status) \(problem.code))", retryable: true)
        default:
            return .unavailable(
                reason: "the server refused the request (\(response.status) \(problem.code)): \(problem.message)",
                retryable: false)
        }
    }
}
