/// A notification as the notifier delivers it: the title and body to
/// show, the grouping and badge kept from `aps`, and what became of the preview.
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
    /// `aps.sound`.
    public var sound: String?
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
        outcome: Outcome, failure: PreviewFailure? = nil
    ) {
        self.title = title
        self.body = body
        self.threadID = threadID
        self.badge = badge
        self.sound = sound
        self.kind = kind
        self.nid = nid
        self.outcome = outcome
        self.failure = failure
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
