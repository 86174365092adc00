/// A push as a push service delivers it (docs/protocol.md, "Payload"): the `aps`
/// dictionary the system shows by itself, and `b`, the ids the notifier
/// fetches the text with. A push never carries message content.
public struct PushPayload: Sendable, Equatable {
    /// The largest payload read, in bytes. A push service delivers a few
    /// KiB (APNs: 4 KiB); a notifier reads at most one byte more than this
    /// and refuses the rest unread, so a payload of any size costs no more.
    public static let maximumSize = 1 << 20

    /// `b.v`: the payload format. Only version 1 is understood; a notifier
    /// leaves a push of any other version as the system would show it.
    public var version: Int
    /// The ids of `b`, nil when ``version`` is not 1 (their meaning is unknown then).
    public var ids: PushIDs?
    /// What `aps` asks the system to show when nobody changes it.
    public var alert: PushAlert

    /// Makes a payload.
    /// - Parameters:
    ///   - version: `b.v`.
    ///   - ids: the ids of `b` (version 1 only).
    ///   - alert: the `aps` members.
    public init(version: Int, ids: PushIDs?, alert: PushAlert) {
        self.version = version
        self.ids = ids
        self.alert = alert
    }
}

/// The ids of a version 1 push (`b`): which notification, of which kind,
/// from which instance, about which thread and message.
public struct PushIDs: Sendable, Equatable {
    /// `b.nid`: the notification id (`nid` of getPushPreview).
    public var nid: String
    /// `b.k`: the kind (`message`, `mention`, `dm`, ...); it picks the placeholder text.
    public var kind: String
    /// `b.i`: the instance, the server's `host:port`; the preview token is kept per instance.
    public var instance: String
    /// `b.t`: the thread (or channel) the notification belongs to, when given.
    public var thread: String?
    /// `b.m`: the message (`message_id` of getPushPreview); without it nothing can be fetched.
    public var message: String?

    /// Makes the ids.
    /// - Parameters:
    ///   - nid: `b.nid`.
    ///   - kind: `b.k`.
    ///   - instance: `b.i`.
    ///   - thread: `b.t`.
    ///   - message: `b.m`.
    public init(nid: String, kind: String, instance: String, thread: String?, message: String?) {
        self.nid = nid
        self.kind = kind
        self.instance = instance
        self.thread = thread
        self.message = message
    }
}

/// The members of `aps` a notifier keeps or shows: the alert as sent (text
/// or localization keys), the grouping, the badge, the sound and the
/// interruption level. Every value is range-checked by the parser: a member
/// out of range or of the wrong type is treated as absent.
public struct PushAlert: Sendable, Equatable {
    /// `aps.alert.title`, or nil.
    public var title: String?
    /// `aps.alert.body` (or `aps.alert` when it is a plain string), or nil.
    public var body: String?
    /// `aps.alert.title-loc-key`: a key of the notifier's string table, or nil.
    public var titleKey: String?
    /// `aps.alert.loc-key`: a key of the notifier's string table, or nil.
    public var bodyKey: String?
    /// `aps.thread-id`: notifications with the same one are grouped.
    public var threadID: String?
    /// `aps.badge`: the number the app's icon shows.
    public var badge: Int?
    /// `aps.sound` (a name, or the `name` of the critical-alert dictionary);
    /// nil means silent, as on Apple platforms.
    public var sound: String?
    /// `aps.interruption-level`; nil when absent or not one of the four
    /// levels (the system then treats the push as ``InterruptionLevel/active``).
    public var interruptionLevel: InterruptionLevel?

    /// Makes the `aps` members.
    public init(
        title: String? = nil, body: String? = nil, titleKey: String? = nil, bodyKey: String? = nil,
        threadID: String? = nil, badge: Int? = nil, sound: String? = nil, interruptionLevel: InterruptionLevel? = nil
    ) {
        self.title = title
        self.body = body
        self.titleKey = titleKey
        self.bodyKey = bodyKey
        self.threadID = threadID
        self.badge = badge
        self.sound = sound
        self.interruptionLevel = interruptionLevel
    }
}

/// `aps.interruption-level`: how strongly a notification may interrupt.
/// Quiet hours send `passive`, which must neither sound nor pop up over
/// what the person is doing.
public enum InterruptionLevel: String, Sendable, CaseIterable {
    /// Into the list without sound or banner (quiet hours).
    case passive
    /// The usual notification.
    case active
    /// Breaks through focus modes.
    case timeSensitive = "time-sensitive"
    /// Breaks through focus modes and the mute switch.
    case critical
}
