import ShareKitHTTPInterface
public import ShareKitPushPreviewInterface
public import ShareKitServerAPIInterface
import ShareKitWireContract

/// The app's side of push (the daemon's): registerPush, unregisterPush and
/// submitClientMetrics with the app's own session. The notifier never uses
/// this type: it has no session.
public struct PushRegistrar: PushRegistering {
    private let api: any AuthorizedAPIClient
    private let sessionID: @Sendable () -> String?

    /// Makes a registrar.
    /// - Parameters:
    ///   - api: the app's session (the parent family) at the server.
    ///   - sessionID: the id of the session `api` sends with, read right
    ///     after the answer: the registration is bound to the session whose
    ///     token the call used, which is the stored one after any repetition
    ///     the client made (a `share login` meanwhile makes the repetition
    ///     use the new session). Should it still name the wrong one, the
    ///     server refuses the preview token later and the app registers again.
    public init(api: any AuthorizedAPIClient, sessionID: @escaping @Sendable () -> String? = { nil }) {
        self.api = api
        self.sessionID = sessionID
    }

    /// registerPush: registers a device token and returns the registration
    /// with its preview token (shown once by the server: store it at once).
    /// - Parameters:
    ///   - pushToken: the push service's device token.
    ///   - provider: the push service (`test` for the reference server's event feed).
    ///   - environment: the push environment.
    ///   - appID: the app's id.
    /// - Throws: ``ShareKitPushPreviewInterface/PushError/registration(_:retryable:)``.
    public func register(pushToken: String, provider: String, environment: String, appID: String)
        async throws(PushError) -> ShareKitPushPreviewInterface.PushRegistration
    {
        let body = RegisterPushBody(provider: provider, token: pushToken, environment: environment, appID: appID)
        let answer: PushRegistrationAnswer
        do {
            answer = try await api.send(
                try APIRequest(.registerPush, json: body),
                decoding: PushRegistrationAnswer.self
            ).value
        } catch {
            throw Self.failure(error)
        }
        return ShareKitPushPreviewInterface.PushRegistration(
            origin: api.origin, registrationID: answer.registrationID, previewToken: answer.previewToken,
            pushToken: pushToken, sessionID: sessionID())
    }

    /// unregisterPush; a registration the server no longer knows counts as removed.
    /// - Parameter registrationID: the registration's id.
    /// - Throws: ``ShareKitPushPreviewInterface/PushError/registration(_:retryable:)``.
    public func unregister(registrationID: String) async throws(PushError) {
        do {
            _ = try await api.send(APIRequest(.unregisterPush(registrationID: registrationID)))
        } catch .refused(let refusal) where refusal.status == 404 {
            return
        } catch {
            throw Self.failure(error)
        }
    }

    /// submitClientMetrics: `client.push_display.duration` (the mean, in
    /// ms) and `client.push.placeholder` (a count) of the taken counters.
    /// - Parameters:
    ///   - totals: the counters taken from the shared state.
    ///   - platform: the `platform` attribute.
    ///   - appVersion: the `app_version` attribute.
    /// - Throws: ``ShareKitPushPreviewInterface/PushError/registration(_:retryable:)``.
    public func submit(_ totals: DisplayCounters.Totals, platform: String, appVersion: String) async throws(PushError) {
        let attributes = ["platform": platform, "app_version": appVersion]
        var metrics: [ClientMetricsBody.Metric] = []
        if totals.displays > 0 {
            metrics.append(
                .init(
                    name: "client.push_display.duration", unit: "ms", attributes: attributes,
                    value: Double(totals.durationMilliseconds) / Double(totals.displays)))
        }
        metrics.append(
            .init(
                name: "client.push.placeholder", unit: "1", attributes: attributes, value: Double(totals.placeholders)))
        let body = ClientMetricsBody(metrics: metrics)
        do {
            _ = try await api.send(
                try APIRequest(.submitClientMetrics, json: body))
        } catch {
            throw Self.failure(error)
        }
    }

    /// A failed call: retryable when the network, the server or the session may come back.
    private static func failure(_ error: APIError) -> PushError {
        switch error {
        case .retryable, .sessionEnded: return PushError(isRetryable: true, description: "\(error)")
        case .refused, .cancelled, .failed: return PushError(isRetryable: false, description: "\(error)")
        }
    }
}
