import Foundation
public import HTTPInterface
import HTTPTypes
public import PushPreviewInterface

/// Fetches a push preview (getPushPreview) with the push registration's
/// preview token and a DPoP proof of the device key, within a deadline.
///
/// It holds no session and cannot refresh anything: the only credential it
/// is given is the preview token. The DPoP client repeats a request the
/// server refused with `use_dpop_nonce` once with the new nonce; the
/// deadline covers both attempts.
public struct PreviewClient: Sendable {
    /// The path of getPushPreview.
    public static let path = "/api/v1/push/preview"
    /// The largest preview answer read (an excerpt and three names).
    static let maxResponseBytes = 64 * 1024

    private let client: any DPoPSigningHTTPClient

    /// Makes a client.
    /// - Parameter client: signs each request with the device key's proof and follows nonces.
    public init(client: any DPoPSigningHTTPClient) {
        self.client = client
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
        _ registration: PushRegistration, nid: String, messageID: String, deadline: ContinuousClock.Instant
    ) async -> PreviewFetchResult {
        let remaining = deadline - ContinuousClock.now
        guard remaining > .zero else { return .failed(.deadline) }
        let url = registration.origin + Self.path + "?nid=" + Self.encode(nid) + "&message_id=" + Self.encode(messageID)
        let cancellation = HTTPCancellation()
        let options = HTTPRequestOptions(
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
        let response: HTTPClientResponse
        do {
            response = try await client.send(
                HTTPClientRequest(method: .get, url: url, headers: ["Accept": "application/json"]),
                accessToken: registration.previewToken, options: options)
        } catch {
            switch error {
            case .cancelled, .timedOut: return .failed(.deadline)
            default: return ContinuousClock.now >= deadline ? .failed(.deadline) : .failed(.network)
            }
        }
        switch response.status {
        case 200:
            guard let content = PreviewDecoder.decode(response.body) else { return .failed(.invalidResponse) }
            return .content(content)
        case 404:
            return .notAvailable
        default:
            return .failed(.status(response.status))
        }
    }

    /// A query value, percent-encoded (ids are opaque text to the client).
    static func encode(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}

/// Decodes a getPushPreview answer strictly against its schema
/// (`PushPreview` in docs/api/openapi.yaml): `mode`, `sender_name`,
/// `channel_name` and `thread_title` (a string or null) are required,
/// `excerpt` is optional; unknown members are ignored.
enum PreviewDecoder {
    static func decode(_ body: [UInt8]) -> PushPreviewContent? {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any],
            let modeText = object["mode"] as? String, let mode = PreviewMode(rawValue: modeText), mode != .none,
            let sender = object["sender_name"] as? String,
            let channel = object["channel_name"] as? String,
            let threadValue = object["thread_title"]
        else { return nil }
        let threadTitle: String?
        switch threadValue {
        case is NSNull: threadTitle = nil
        case let text as String: threadTitle = text
        default: return nil
        }
        let excerpt: String?
        switch object["excerpt"] {
        case nil, is NSNull: excerpt = nil
        case let text as String: excerpt = text
        default: return nil
        }
        return PushPreviewContent(
            mode: mode, senderName: sender, threadTitle: threadTitle, channelName: channel, excerpt: excerpt)
    }
}
