public import ShareKitCore

// The bodies of the event feed and the settings: listEvents, getSettings,
// updateSettings.

/// One event of the feed (`Event`).
///
/// The members beyond `id`, `type` and `created_at` depend on the type and
/// clients ignore types they do not know, so they are kept as
/// ``ShareKitCore/JSONValue``: ``fields`` holds every other member as sent.
public struct EventBody: Codable, Hashable, Sendable {
    /// The cursor of this event.
    public var id: String
    /// `access.changed`, `session.revoked`, `settings.changed`, `push`, …
    public var type: String
    /// When (RFC 3339).
    public var createdAt: String
    /// The type's own members (`target_ids`, `session_id`, `payload`), by name.
    public var fields: [String: JSONValue]

    /// Makes an event.
    /// - Parameters:
    ///   - id: the cursor.
    ///   - type: the type.
    ///   - createdAt: when.
    ///   - fields: the other members.
    public init(id: String, type: String, createdAt: String, fields: [String: JSONValue] = [:]) {
        self.id = id
        self.type = type
        self.createdAt = createdAt
        self.fields = fields
    }

    /// The names `id`, `type`, `created_at`: never taken from ``fields``.
    private static let ownNames: Set<String> = ["id", "type", "created_at"]

    /// Decodes an event: the three members and every other as a field.
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` when a required member is missing or not a string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: WireKey.self)
        id = try container.decode(String.self, forKey: WireKey("id"))
        type = try container.decode(String.self, forKey: WireKey("type"))
        createdAt = try container.decode(String.self, forKey: WireKey("created_at"))
        var fields: [String: JSONValue] = [:]
        for key in container.allKeys where !Self.ownNames.contains(key.stringValue) {
            fields[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
        }
        self.fields = fields
    }

    /// Encodes the event: the fields, then `id`, `type` and `created_at`
    /// (which win over fields of the same name).
    /// - Parameter encoder: the encoder.
    /// - Throws: what the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: WireKey.self)
        for (name, value) in fields where !Self.ownNames.contains(name) {
            try container.encode(value, forKey: WireKey(name))
        }
        try container.encode(id, forKey: WireKey("id"))
        try container.encode(type, forKey: WireKey("type"))
        try container.encode(createdAt, forKey: WireKey("created_at"))
    }
}

/// The answer of listEvents (`EventList`).
public struct EventList: Codable, Hashable, Sendable {
    /// The events, oldest first; empty when the wait ended without any.
    public var events: [EventBody]
    /// The `after` of the next call.
    public var cursor: String

    /// Makes an answer.
    /// - Parameters:
    ///   - events: the events.
    ///   - cursor: the next cursor.
    public init(events: [EventBody], cursor: String) {
        self.events = events
        self.cursor = cursor
    }
}

/// The answer of getSettings and updateSettings (`Settings`).
public struct SettingsBody: Codable, Hashable, Sendable {
    /// The notification settings.
    public struct Notify: Codable, Hashable, Sendable {
        /// `full`, `names` or `none`.
        public var previewMode: String
        /// Whether the person is pushed the messages others write (`notify.enabled`).
        public var enabled: Bool

        /// Makes the notification settings.
        /// - Parameters:
        ///   - previewMode: the preview mode.
        ///   - enabled: whether messages are pushed.
        public init(previewMode: String, enabled: Bool = true) {
            self.previewMode = previewMode
            self.enabled = enabled
        }

        /// Decodes the settings; a server that predates `enabled` pushes, so a missing member is true.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            previewMode = try container.decode(String.self, forKey: .previewMode)
            enabled = try container.decodeIfPresent(Bool.self, forKey: .enabled) ?? true
        }

        private enum CodingKeys: String, CodingKey {
            case previewMode = "preview_mode"
            case enabled
        }
    }

    /// The notification settings.
    public var notify: Notify

    /// Makes an answer.
    /// - Parameters:
    ///   - previewMode: `notify.preview_mode`.
    ///   - enabled: `notify.enabled`.
    public init(previewMode: String, enabled: Bool = true) {
        notify = Notify(previewMode: previewMode, enabled: enabled)
    }
}

/// The body of updateSettings (`SettingsPatch`): every member optional; null is the same as absent.
public struct SettingsPatch: Codable, Hashable, Sendable {
    /// The notification settings to change.
    public struct Notify: Codable, Hashable, Sendable {
        /// The new preview mode, or nil to leave it.
        public var previewMode: String?
        /// Whether messages are pushed from now on, or nil to leave it.
        public var enabled: Bool?

        /// Makes the change.
        /// - Parameters:
        ///   - previewMode: the new mode, or nil.
        ///   - enabled: the new `notify.enabled`, or nil.
        public init(previewMode: String?, enabled: Bool? = nil) {
            self.previewMode = previewMode
            self.enabled = enabled
        }

        private enum CodingKeys: String, CodingKey {
            case previewMode = "preview_mode"
            case enabled
        }
    }

    /// The notification settings to change, or nil.
    public var notify: Notify?

    /// Makes a body.
    /// - Parameter notify: the change, or nil.
    public init(notify: Notify?) { self.notify = notify }
}

/// A coding key for any member name (bodies whose member names are data).
struct WireKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
