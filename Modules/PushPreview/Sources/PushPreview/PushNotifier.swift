public import ShareKitPushPreviewInterface
public import ShareKitSharedStateInterface
import ShareKitWireContract

/// The notifier, the counterpart of a Notification Service Extension: it
/// renders one push within `client.push.fetch_timeout` and counts it.
///
/// What it reads: `notify.preview_mode` and `client.push.fetch_timeout`
/// from the shared state (the daemon writes them), the push registration of
/// the push's instance from the keychain. What it writes: counters only
/// (the display counters, and how often the server refused the preview
/// token, which tells the app to register again), never a name or a text.
/// It is never given a session: it cannot use or refresh one.
public struct PushNotifier: PushNotifying {
    /// The fetch timeout when the shared state has no `client.push.fetch_timeout`
    /// (the daemon writes the key; this is the same default it writes).
    static let defaultFetchTimeout = PushRegistration.defaultFetchTimeout

    private let client: any PreviewFetching
    private let registrations: any PushRegistrationStoring
    private let state: any SharedStateStore
    private let counters: DisplayCounters
    /// The texts (the environment's language).
    public let strings: PushStrings

    /// Makes a notifier.
    /// - Parameters:
    ///   - client: fetches previews with the preview token.
    ///   - registrations: the keychain's push registrations.
    ///   - state: the shared state (mode, timeout, counters).
    ///   - strings: the localized texts.
    public init(
        client: any PreviewFetching, registrations: any PushRegistrationStoring, state: any SharedStateStore,
        strings: PushStrings
    ) {
        self.client = client
        self.registrations = registrations
        self.state = state
        self.strings = strings
        counters = DisplayCounters(state: state)
    }

    /// Renders a push and adds it to the display counters.
    /// - Parameters:
    ///   - payload: the parsed push.
    ///   - receivedAt: when it arrived.
    /// - Returns: the notification to show.
    public func render(_ payload: PushPayload, receivedAt: ContinuousClock.Instant) async -> RenderedNotification {
        let shown = await decide(payload, receivedAt: receivedAt)
        counters.record(duration: ContinuousClock.now - receivedAt, placeholder: shown.isPlaceholder)
        return shown
    }

    /// The fetch timeout: `client.push.fetch_timeout` (milliseconds) from the shared state, else the default.
    public func fetchTimeout() -> Duration {
        guard let text = (try? state.value(for: .pushFetchTimeout)) ?? nil, let ms = Int64(text), ms > 0 else {
            return Self.defaultFetchTimeout
        }
        return .milliseconds(ms)
    }

    /// The preview mode from the shared state. When it is unknown the
    /// notifier asks: the server answers for the person's actual mode
    /// (`403` for none, which keeps the placeholder), so nothing is shown
    /// that the person turned off.
    public func previewMode() -> PreviewMode {
        ((try? state.value(for: .previewMode)) ?? nil).flatMap(PreviewMode.init(rawValue:)) ?? .full
    }

    private func decide(_ payload: PushPayload, receivedAt: ContinuousClock.Instant) async -> RenderedNotification {
        let renderer = PreviewRenderer(strings: strings)
        guard let ids = payload.ids else { return renderer.unchanged(payload) }
        let registration = (try? registrations.registration(instance: ids.instance)) ?? nil
        var shown = await decide(
            payload, ids: ids, registration: registration, renderer: renderer, receivedAt: receivedAt)
        // A notification without the message's link (the placeholder,
        // "Message not available") opens the server's thread list: the
        // person can still go and look, and the link says nothing about
        // the message. Only on the registration's origin, as every link.
        if shown.link == nil, shown.outcome != .preview, let registration {
            shown.link = NotificationLink.resolve(WebReaderPath.threads, origin: registration.origin)
        }
        return shown
    }

    private func decide(
        _ payload: PushPayload, ids: PushIDs, registration: ShareKitPushPreviewInterface.PushRegistration?,
        renderer: PreviewRenderer,
        receivedAt: ContinuousClock.Instant
    ) async -> RenderedNotification {
        guard previewMode() != .none else { return renderer.placeholder(payload, ids: ids, failure: nil) }
        guard let message = ids.message else { return renderer.placeholder(payload, ids: ids, failure: .noMessage) }
        guard let registration else {
            return renderer.placeholder(payload, ids: ids, failure: .noRegistration)
        }
        let result = await client.fetch(
            registration, nid: ids.nid, messageID: message, deadline: receivedAt + fetchTimeout())
        if result == .failed(.status(401)) {
            // The server no longer takes this preview token (the registration
            // was taken over, removed, or its session ended). The notifier
            // cannot register (it has no session); the app sees the counter
            // and registers again. Best effort, like the display counters.
            _ = try? state.increment(.previewRefusedCount)
        }
        return renderer.render(result, payload: payload, ids: ids, origin: registration.origin)
    }
}
