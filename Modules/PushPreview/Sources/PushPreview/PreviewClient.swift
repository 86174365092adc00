import ShareKitHTTPInterface
public import ShareKitPushPreviewInterface
public import ShareKitServerAPIInterface
import ShareKitWireContract

/// Fetches a push preview (getPushPreview) with the push registration's
/// preview token and a DPoP proof of the device key, within a deadline.
///
/// It holds no session and cannot refresh anything: the only credential it
/// is given is the preview token, through an authorized API client made
/// for the registration (a fixed token: a refused one is not sent again).
/// The DPoP client repeats a request the server refused with
/// `use_dpop_nonce` once with the new nonce; the deadline covers both attempts.
public struct PreviewClient: PreviewFetching {
    /// The path of getPushPreview (the wire contract's).
    public static let path = Route.getPushPreview.path
    /// The largest preview answer read (an excerpt and three names).
    static let maxResponseBytes = 64 * 1024

    private let api: @Sendable (ShareKitPushPreviewInterface.PushRegistration) -> any AuthorizedAPIClient

    /// Makes a client.
    /// - Parameter api: the authorized client of a registration: its origin,
    ///   its preview token, the device key's proofs.
    public init(api: @escaping @Sendable (ShareKitPushPreviewInterface.PushRegistration) -> any AuthorizedAPIClient) {
        self.api = api
    }

    /// Fetches the preview of one notification.
    /// - Parameters:
    ///   - registration: where to ask and with which preview token.
    ///   - nid: `b.nid`.
    ///   - messageID: `b.m`.
    ///   - deadline: when the answer must be there (`client.push.fetch_timeout` after receipt).
    /// - Returns: the preview, ``PreviewFetchResult/notAvailable`` on `404`,
    ///   else ``PreviewFetchResult/failed(_:)`` with the reason.
    public func fetch(
        _ registration: ShareKitPushPreviewInterface.PushRegistration, nid: String, messageID: String,
        deadline: ContinuousClock.Instant
    ) async -> PreviewFetchResult {
        let remaining = deadline - ContinuousClock.now
        guard remaining > .zero else { return .failed(.deadline) }
        let query = [("nid", nid), ("message_id", messageID)]
        let cancellation = HTTPCancellation()
        let options = APICallOptions(
            timeouts: HTTPTimeouts(connect: remaining, lowSpeedLimit: 1, lowSpeedTime: remaining, total: remaining),
            maxResponseBodyBytes: Self.maxResponseBytes, cancellation: cancellation)
        // The transport's own limits cover one attempt; this one covers the
        // nonce repetition too, and cuts a transfer off where it stands.
        let timer = Task {
            do {
                try await Task.sleep(until: deadline, clock: .continuous)
                cancellation.cancel()
            } catch {}
        }
        defer { timer.cancel() }
        do {
            let answer = try await api(registration).send(
                APIRequest(.getPushPreview, query: query), decoding: PushPreviewAnswer.self, options: options)
            return .content(answer.value.content)
        } catch {
            switch error {
            case .refused(let refusal) where refusal.status == 404: return .notAvailable
            case .refused(let refusal): return .failed(.status(refusal.status))
            case .sessionEnded: return .failed(.status(401))
            case .retryable(let retry):
                switch retry.kind {
                case .status(let status, _): return .failed(.status(status))
                case .unreadableAnswer: return .failed(.invalidResponse)
                case .timeout, .budget: return .failed(.deadline)
                case .network, .session:
                    return ContinuousClock.now >= deadline ? .failed(.deadline) : .failed(.network)
                }
            case .cancelled: return .failed(.deadline)
            case .failed: return ContinuousClock.now >= deadline ? .failed(.deadline) : .failed(.network)
            }
        }
    }
}

/// Decodes a getPushPreview answer strictly against its schema
/// (`PushPreview` in docs/api/openapi.yaml), for the fuzzer and the tests.
enum PreviewDecoder {
    static func decode(_ body: [UInt8]) -> PushPreviewContent? {
        (try? APIJSON.decode(PushPreviewAnswer.self, from: body))?.content
    }
}
