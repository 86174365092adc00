public import ShareKitPushPreviewInterface

/// Title and body from a preview answer, or the placeholder, in the
/// strings' language. Only the members the answer carries are shown: a
/// `names` answer has no excerpt, a channel's main timeline no thread.
public struct PreviewRenderer: Sendable {
    /// The localized texts.
    public let strings: PushStrings

    /// Makes a renderer.
    /// - Parameter strings: the localized texts.
    public init(strings: PushStrings) {
        self.strings = strings
    }

    /// The notification for a fetch result.
    /// - Parameters:
    ///   - result: how the fetch ended.
    ///   - payload: the push.
    ///   - ids: its ids.
    ///   - origin: the origin the preview came from (the registration's):
    ///     the preview's `web_url` becomes the notification's link only on it.
    /// - Returns: names and excerpt, "Message not available", or the placeholder.
    public func render(_ result: PreviewFetchResult, payload: PushPayload, ids: PushIDs, origin: String? = nil)
        -> RenderedNotification
    {
        switch result {
        case .content(let preview):
            let title =
                preview.threadTitle.map {
                    strings.format(.titleSenderThread, ["sender": preview.senderName, "thread": $0])
                } ?? strings.format(.titleSender, ["sender": preview.senderName])
            let body =
                preview.mode == .full
                ? preview.excerpt.map {
                    strings.format(.bodyChannelExcerpt, ["channel": preview.channelName, "excerpt": $0])
                } : nil
            var shown = notification(
                payload, ids: ids, title: title,
                body: body ?? strings.format(.bodyChannel, ["channel": preview.channelName]), outcome: .preview)
            if let webURL = preview.webURL, let origin {
                shown.link = NotificationLink.resolve(webURL, origin: origin)
            }
            return shown
        case .notAvailable:
            return notification(
                payload, ids: ids, title: strings.text(.title), body: strings.text(.notAvailable),
                outcome: .notAvailable)
        case .failed(let failure):
            return placeholder(payload, ids: ids, failure: failure)
        }
    }

    /// The localized placeholder of the push's kind.
    /// - Parameters:
    ///   - payload: the push.
    ///   - ids: its ids.
    ///   - failure: why it stays, nil for mode none.
    public func placeholder(_ payload: PushPayload, ids: PushIDs, failure: PreviewFailure?) -> RenderedNotification {
        var shown = notification(
            payload, ids: ids, title: strings.text(.title), body: strings.placeholderBody(kind: ids.kind),
            outcome: .placeholder)
        shown.failure = failure
        return shown
    }

    /// A push of an unknown version, as the system would show it: its alert
    /// texts, or the texts of its localization keys.
    public func unchanged(_ payload: PushPayload) -> RenderedNotification {
        let alert = payload.alert
        return RenderedNotification(
            title: alert.title ?? alert.titleKey.flatMap(strings.text(named:)) ?? "",
            body: alert.body ?? alert.bodyKey.flatMap(strings.text(named:)) ?? "", threadID: alert.threadID,
            badge: alert.badge, sound: Self.sound(alert), kind: nil, nid: nil, outcome: .unchanged,
            urgency: NotificationUrgency(alert.interruptionLevel))
    }

    private func notification(
        _ payload: PushPayload, ids: PushIDs, title: String, body: String, outcome: RenderedNotification.Outcome
    ) -> RenderedNotification {
        RenderedNotification(
            title: title, body: body, threadID: payload.alert.threadID ?? ids.thread, badge: payload.alert.badge,
            sound: Self.sound(payload.alert), kind: ids.kind, nid: ids.nid, outcome: outcome,
            urgency: NotificationUrgency(payload.alert.interruptionLevel))
    }

    /// The sound to play: the push's, except in quiet hours (`passive`),
    /// which never sound.
    private static func sound(_ alert: PushAlert) -> String? {
        alert.interruptionLevel == .passive ? nil : alert.sound
    }
}
