import Foundation
public import HTTPInterface
import HTTPTypes
public import PushPreviewInterface
public import SessionsInterface

/// The app's side of push (the daemon's): registerPush, unregisterPush and
/// submitClientMetrics with the app's own session. The notifier never uses
/// this type: it has no session.
public struct PushRegistrar: Sendable {
    /// Why a call failed.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// Whether trying again later may work (no network, the session not usable now).
        public let isRetryable: Bool
        /// A message for a person (never a token).
        public let description: String
    }

    private let origin: String
    private let client: any DPoPSigningHTTPClient
    private let tokens: any AccessTokenProvider

    /// Makes a registrar.
    /// - Parameters:
    ///   - origin: the server's origin.
    ///   - client: the DPoP-signing client.
    ///   - tokens: the app's session (the parent family).
    public init(origin: String, client: any DPoPSigningHTTPClient, tokens: any AccessTokenProvider) {
        self.origin = origin
        self.client = client
        self.tokens = tokens
    }

    /// registerPush: registers a device token and returns the registration
    /// with its preview token (shown once by the server: store it at once).
    /// - Parameters:
    ///   - pushToken: the push service's device token.
    ///   - provider: the push service (`test` for the reference server's event feed).
    ///   - environment: the push environment.
    ///   - appID: the app's id.
    /// - Throws: ``Failure``.
    public func register(pushToken: String, provider: String, environment: String, appID: String)
        async throws(Failure) -> PushRegistration
    {
        let body = ["provider": provider, "token": pushToken, "environment": environment, "app_id": appID]
        let response = try await send(.post, "/api/v1/push/registrations", json: body)
        guard response.status == 201 else { throw Self.failure("registerPush", response) }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any],
            let id = object["registration_id"] as? String, let previewToken = object["preview_token"] as? String
        else { throw Failure(isRetryable: true, description: "registerPush: the answer could not be read") }
        return PushRegistration(origin: origin, registrationID: id, previewToken: previewToken, pushToken: pushToken)
    }

    /// unregisterPush; a registration the server no longer knows counts as removed.
    /// - Parameter registrationID: the registration's id.
    /// - Throws: ``Failure``.
    public func unregister(registrationID: String) async throws(Failure) {
        let path = "/api/v1/push/registrations/" + PreviewClient.encode(registrationID)
        let response = try await send(.delete, path, json: nil)
        guard response.status == 204 || response.status == 404 else { throw Self.failure("unregisterPush", response) }
    }

    /// submitClientMetrics: `client.push_display.duration` (the mean, in
    /// ms) and `client.push.placeholder` (a count) of the taken counters.
    /// - Parameters:
    ///   - totals: the counters taken from the shared state.
    ///   - platform: the `platform` attribute.
    ///   - appVersion: the `app_version` attribute.
    /// - Throws: ``Failure``.
    public func submit(_ totals: DisplayCounters.Totals, platform: String, appVersion: String) async throws(Failure) {
        let attributes = ["platform": platform, "app_version": appVersion]
        var metrics: [[String: Any]] = []
        if totals.displays > 0 {
            metrics.append([
                "name": "client.push_display.duration", "unit": "ms", "attributes": attributes,
                "value": Double(totals.durationMilliseconds) / Double(totals.displays),
            ])
        }
        metrics.append([
            "name": "client.push.placeholder", "unit": "1", "attributes": attributes, "value": totals.placeholders,
        ])
        let response = try await send(.post, "/api/v1/client-metrics", json: ["metrics": metrics])
        guard response.status == 202 else { throw Self.failure("submitClientMetrics", response) }
    }

    /// One call with the session; a `401` is reported to the provider and tried once more.
    private func send(_ method: HTTPRequestMethod, _ path: String, json: Any?) async throws(Failure)
        -> HTTPClientResponse
    {
        var request = HTTPClientRequest(method: method, url: origin + path)
        if let json {
            guard let data = try? JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]) else {
                throw Failure(isRetryable: false, description: "\(path): the request could not be encoded")
            }
            request.body = .bytes(Array(data))
            request.headers.set("Content-Type", "application/json")
        }
        var retried = false
        while true {
            let token: AccessToken
            do {
                token = try await tokens.currentAccessToken()
            } catch {
                throw Failure(isRetryable: true, description: "no usable session: \(error)")
            }
            let response: HTTPClientResponse
            do {
                response = try await client.send(request, accessToken: token.plainText)
            } catch {
                throw Failure(isRetryable: error.isRetryable, description: "\(path): \(error)")
            }
            if response.status == 401, !retried {
                retried = true
                await tokens.reportRejected(token: token)
                continue
            }
            return response
        }
    }

    private static func failure(_ operation: String, _ response: HTTPClientResponse) -> Failure {
        let code = ((try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any])?["code"]
        return Failure(
            isRetryable: response.status == 401 || response.status == 429 || response.status >= 500,
            description: "\(operation) answered \(response.status)" + ((code as? String).map { " (\($0))" } ?? ""))
    }
}
