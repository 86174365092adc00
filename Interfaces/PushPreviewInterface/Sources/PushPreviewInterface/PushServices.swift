/// The notifier's display counters as taken from the shared state: what
/// the app reports with submitClientMetrics.
public struct PushDisplayTotals: Sendable, Equatable {
    /// The summed display durations, in milliseconds.
    public var durationMilliseconds: Int64
    /// How many notifications were shown.
    public var displays: Int64
    /// How many of them kept the placeholder.
    public var placeholders: Int64

    /// Whether there is nothing to report.
    public var isEmpty: Bool { displays == 0 && placeholders == 0 && durationMilliseconds == 0 }

    /// Makes totals.
    /// - Parameters:
    ///   - durationMilliseconds: the summed display durations.
    ///   - displays: the notifications shown.
    ///   - placeholders: the placeholders among them.
    public init(durationMilliseconds: Int64, displays: Int64, placeholders: Int64) {
        self.durationMilliseconds = durationMilliseconds
        self.displays = displays
        self.placeholders = placeholders
    }
}

/// The app's side of push (the daemon's, and `share logout`'s):
/// registerPush, unregisterPush and submitClientMetrics with the app's own
/// session. The notifier never uses it: it has no session.
public protocol PushRegistering: Sendable {
    /// registerPush: registers a device token and returns the registration
    /// with its preview token (shown once by the server: store it at once).
    /// - Parameters:
    ///   - pushToken: the push service's device token.
    ///   - provider: the push service (`test` for the reference server's event feed).
    ///   - environment: the push environment.
    ///   - appID: the app's id.
    /// - Returns: the registration.
    /// - Throws: ``PushError``.
    func register(pushToken: String, provider: String, environment: String, appID: String)
        async throws(PushError) -> PushRegistration

    /// unregisterPush; a registration the server no longer knows counts as removed.
    /// - Parameter registrationID: the registration's id.
    /// - Throws: ``PushError``.
    func unregister(registrationID: String) async throws(PushError)

    /// submitClientMetrics: reports the taken display counters.
    /// - Parameters:
    ///   - totals: the counters taken from the shared state.
    ///   - platform: the `platform` attribute.
    ///   - appVersion: the `app_version` attribute.
    /// - Throws: ``PushError``.
    func submit(_ totals: PushDisplayTotals, platform: String, appVersion: String)
        async throws(PushError)
}

/// Fetches the preview of one notification (getPushPreview) with the push
/// registration's preview token, within a deadline. It holds no session.
public protocol PreviewFetching: Sendable {
    /// Fetches the preview of one notification.
    /// - Parameters:
    ///   - registration: where to ask and with which preview token.
    ///   - nid: `b.nid`.
    ///   - messageID: `b.m`.
    ///   - deadline: when the answer must be there.
    /// - Returns: the preview, ``PreviewFetchResult/notAvailable`` when the
    ///   message is gone, else ``PreviewFetchResult/failed(_:)`` with the reason.
    func fetch(_ registration: PushRegistration, nid: String, messageID: String, deadline: ContinuousClock.Instant)
        async -> PreviewFetchResult
}

/// The notifier's display counters in the shared state, from the app's
/// side: it takes them to report them, and adds them back when the report
/// failed.
public protocol PushDisplayCounting: Sendable {
    /// Takes the counters (they are zero afterwards).
    /// - Returns: what was counted since the last take.
    /// - Throws: the shared state's error when the counters cannot be read or reset.
    func take() throws -> PushDisplayTotals
    /// Adds taken counters back (a report that failed).
    /// - Parameter totals: what was taken.
    func restore(_ totals: PushDisplayTotals)
}

/// Shows a rendered notification on this desktop.
public protocol NotificationPresenting: Sendable {
    /// Shows the notification and returns once it is shown, without
    /// offering its default action (for notifications about the app's own
    /// work; a push's notification goes through ``present(_:)``).
    /// - Parameter shown: what to show.
    /// - Throws: an error with a message for a person when it cannot be shown.
    func deliver(_ shown: RenderedNotification) throws

    /// Shows the notification with its default action when it has a
    /// ``RenderedNotification/link``, and waits until the person clicked
    /// it (the link is opened then) or it was closed. Cancelling the task
    /// stops the waiting; the notification stays on the desktop without its
    /// action.
    /// - Parameter shown: what to show.
    /// - Returns: what the person did.
    /// - Throws: an error with a message for a person when it cannot be
    ///   shown, or the link cannot be opened.
    func present(_ shown: RenderedNotification) async throws -> NotificationAnswer

    /// As ``present(_:)``, in the place of an earlier notification (the
    /// freedesktop `replaces_id`: one notification per thread), telling the
    /// id the notification server gave as soon as it is known, before the
    /// wait for a click.
    /// - Parameters:
    ///   - shown: what to show.
    ///   - replacing: the id of the notification it replaces; nil for a new one.
    ///   - shownAs: called at most once with the notification's id; nil asks for none.
    /// - Returns: what the person did.
    /// - Throws: as ``present(_:)``.
    func present(
        _ shown: RenderedNotification, replacing: UInt32?, shownAs: (@Sendable (UInt32) -> Void)?
    ) async throws -> NotificationAnswer
}

extension NotificationPresenting {
    /// For a presenter without actions: shows the notification with
    /// ``deliver(_:)`` and waits for nothing.
    /// - Parameter shown: what to show.
    /// - Returns: ``NotificationAnswer/shown``.
    /// - Throws: what ``deliver(_:)`` throws.
    public func present(_ shown: RenderedNotification) async throws -> NotificationAnswer {
        try deliver(shown)
        return .shown
    }

    /// For a presenter that knows no notification ids: shows the
    /// notification with ``present(_:)``, replacing nothing and telling no id.
    /// - Parameters:
    ///   - shown: what to show.
    ///   - replacing: ignored.
    ///   - shownAs: never called.
    /// - Returns: what ``present(_:)`` returns.
    /// - Throws: what ``present(_:)`` throws.
    public func present(
        _ shown: RenderedNotification, replacing: UInt32?, shownAs: (@Sendable (UInt32) -> Void)?
    ) async throws -> NotificationAnswer {
        try await present(shown)
    }
}

/// What became of a presented notification.
public enum NotificationAnswer: Sendable, Equatable {
    /// Shown; it has no default action, so nothing was waited for.
    case shown
    /// Closed (or the wait was cancelled) without its default action.
    case closed
    /// Clicked: this link was opened.
    case opened(String)
}
