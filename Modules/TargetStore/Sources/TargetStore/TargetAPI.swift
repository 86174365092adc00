import ShareKitServerAPIInterface
import ShareKitTargetStoreInterface
import ShareKitWireContract

/// listSpaces and searchThreadTitles through the authorized API client,
/// every failure turned into ``ShareKitTargetStoreInterface/TargetError/unavailable(reason:retryable:)``.
struct TargetAPI: Sendable {
    let api: any AuthorizedAPIClient

    /// The server's largest `limit` for searchThreadTitles.
    static let maximumSearchLimit = 100

    /// `GET /api/v1/spaces`.
    func spaces() async throws(TargetError) -> [SpaceAnswer] {
        try await get(APIRequest(.listSpaces), as: [SpaceAnswer].self)
    }

    /// `GET /api/v1/threads/search?q=&limit=`; `limit` is kept within 1 to 100.
    func searchThreads(_ query: String, limit: Int) async throws(TargetError) -> [ThreadHitAnswer] {
        let bounded = min(max(limit, 1), Self.maximumSearchLimit)
        let request = APIRequest(.searchThreadTitles, query: [("q", query), ("limit", String(bounded))])
        return try await get(request, as: [ThreadHitAnswer].self)
    }

    /// Whether `GET /api/v1/threads/{id}/messages` finds the thread, and the
    /// channel of its first message when it has one.
    func probeThread(_ id: String) async throws(TargetError) -> (exists: Bool, channelID: String?) {
        let request = APIRequest(.listMessages(threadID: id))
        do {
            let page = try await api.send(request, decoding: MessagePageAnswer.self).value
            return (true, page.messages.first?.channelID)
        } catch .refused(let refusal) where refusal.status == 404 {
            return (false, nil)
        } catch {
            throw Self.classify(error)
        }
    }

    private func get<T: Decodable & Sendable>(_ request: APIRequest, as type: T.Type) async throws(TargetError) -> T {
        do {
            return try await api.send(request, decoding: T.self).value
        } catch {
            throw Self.classify(error)
        }
    }

    /// A failed call: passing failures may pass; an ended session needs a
    /// new sign-in; a refusal needs a change first.
    static func classify(_ error: APIError) -> TargetError {
        switch error {
        case .cancelled:
            return .unavailable(reason: "cancelled", retryable: true)
        case .retryable(let retry):
            switch retry.kind {
            case .status(429, _):
                let wait = retry.retryAfterSeconds.map { "; it asked to wait \($0) seconds" } ?? ""
                return .unavailable(reason: "the server is busy\(wait)", retryable: true)
            case .status(let status, let code):
                return .unavailable(reason: "the server had a problem (\(status) \(code))", retryable: true)
            case .unreadableAnswer(let status):
                return .unavailable(reason: "the server's answer could not be read (\(status))", retryable: true)
            // A person's words: the operation and the transport's words (retry.message) are for logs.
            case .network: return .unavailable(reason: "the server could not be reached", retryable: true)
            case .timeout, .budget: return .unavailable(reason: "the server did not answer in time", retryable: true)
            case .session: return .unavailable(reason: "no session could be used right now", retryable: true)
            }
        case .sessionEnded(let why):
            return .unavailable(reason: "\(why); sign in again (share login)", retryable: false)
        case .refused(let refusal):
            return .unavailable(
                reason: "the server refused the request (\(refusal.status) \(refusal.code)): \(refusal.message)",
                retryable: false)
        case .failed:
            return .unavailable(reason: error.summary, retryable: false)
        }
    }
}
