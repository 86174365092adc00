/// A notification as the notifier delivers it: the title and body to
/// show, the grouping, badge, sound and urgency from `aps`, the link its
/// default action opens, and what became of the preview.
public struct RenderedNotification: Sendable, Equatable {
    /// What happened to the push.
    public enum Outcome: String, Sendable {
        /// The preview's names (and excerpt) are shown.
        case preview
        /// `404`: "Message not available".
        case notAvailable = "not_available"
        /// The localized placeholder of the kind (mode none, no answer, the deadline).
        case placeholder
        /// A payload version the notifier does not know: shown as sent.
        case unchanged
    }

    /// The title.
    public var title: String
    /// The body.
    public var body: String
    /// `aps.thread-id` (notifications group by it), or `b.t` when `aps` has none.
    public var threadID: String?
    /// `aps.badge`.
    public var badge: Int?
    /// `aps.sound`: the notification plays the desktop's message sound when
    /// it is set; nil is silent (no `sound`, or quiet hours).
    public var sound: String?
    /// How urgent the desktop should treat it, from `aps.interruption-level`.
    public var urgency: NotificationUrgency
    /// What the default action (a click on the notification) opens: the
    /// server's web link of the message, an absolute `http`/`https` URL on
    /// the origin the registration was made with, never anything else. Nil
    /// when there is none (no preview, or the server's link was refused).
    public var link: String?
    /// `b.k`, nil for an unknown payload version.
    public var kind: String?
    /// `b.nid`, nil for an unknown payload version.
    public var nid: String?
    /// What became of the preview.
    public var outcome: Outcome
    /// Why the placeholder stayed (``Outcome/placeholder`` only).
    public var failure: PreviewFailure?

    /// Whether the placeholder is shown.
    public var isPlaceholder: Bool { outcome == .placeholder }

    /// Makes a rendered notification.
    public init(
        title: String, body: String, threadID: String?, badge: Int?, sound: String?, kind: String?, nid: String?,
        outcome: Outcome, failure: PreviewFailure? = nil, urgency: NotificationUrgency = .normal, link: String? = nil
    ) {
        self.title = title
        self.body = body
        self.threadID = threadID
        self.badge = badge
        self.sound = sound
        self.urgency = urgency
        self.link = link
        self.kind = kind
        self.nid = nid
        self.outcome = outcome
        self.failure = failure
    }
}

/// The urgency levels of a desktop notification (the freedesktop
/// notification specification's `urgency` hint).
public enum NotificationUrgency: String, Sendable, CaseIterable {
    /// `passive` pushes (quiet hours): no sound, no interruption.
    case low
    /// `active` pushes and pushes without a level.
    case normal
    /// `time-sensitive` and `critical` pushes: the notification stays until dismissed.
    case critical

    /// The urgency of an interruption level; nil (no level, or one the
    /// notifier does not know) is the usual one.
    /// - Parameter level: `aps.interruption-level`.
    public init(_ level: InterruptionLevel?) {
        switch level {
        case .passive: self = .low
        case .active, nil: self = .normal
        case .timeSensitive, .critical: self = .critical
        }
    }
}

/// The notifier: turns a push into the notification to show, within
/// `client.push.fetch_timeout`, authenticating only with the push
/// registration's preview token (never a session, never a refresh).
public protocol PushNotifying: Sendable {
    /// Renders one push.
    /// - Parameters:
    ///   - payload: the parsed push.
    ///   - receivedAt: when it arrived; the deadline and the display duration count from here.
    /// - Returns: the notification to show. Never fails: whatever goes
    ///   wrong leaves the placeholder.
    func render(_ payload: PushPayload, receivedAt: ContinuousClock.Instant) async -> RenderedNotification
}
