public import WireContract

/// The body of registerPush: the wire contract's type (its name there,
/// `PushRegistration`, is this interface's stored registration).
public typealias RegisterPushBody = WireContract.PushRegistration

/// The answer of registerPush: the registration and its preview token
/// (shown once: the client stores it at once). The wire contract's type.
public typealias PushRegistrationAnswer = PushRegistrationCreated

/// The body of submitClientMetrics (`POST /api/v1/client-metrics`).
public struct ClientMetricsBody: Codable, Hashable, Sendable {
    /// One measurement.
    public struct Metric: Codable, Hashable, Sendable {
        /// `client.push_display.duration` or `client.push.placeholder`.
        public var name: String
        /// `ms` or `1`.
        public var unit: String
        /// `platform` and `app_version`.
        public var attributes: [String: String]
        /// The value.
        public var value: Double

        /// Makes a measurement.
        /// - Parameters:
        ///   - name: the metric's name.
        ///   - unit: its unit.
        ///   - attributes: its attributes.
        ///   - value: its value.
        public init(name: String, unit: String, attributes: [String: String], value: Double) {
            self.name = name
            self.unit = unit
            self.attributes = attributes
            self.value = value
        }
    }

    /// The measurements.
    public var metrics: [Metric]

    /// Makes a body.
    /// - Parameter metrics: the measurements.
    public init(metrics: [Metric]) {
        self.metrics = metrics
    }
}

/// The answer of getPushPreview, decoded strictly: `mode`, `sender_name`,
/// `channel_name` and `thread_title` (a string or null) are required,
/// `excerpt` is optional; unknown members are ignored, and so is a
/// `web_url` that is not a string (the notification then has no link).
public struct PushPreviewAnswer: Decodable, Sendable, Equatable {
    /// The content.
    public var content: PushPreviewContent

    enum CodingKeys: String, CodingKey {
        case mode, excerpt
        case webURL = "web_url"
        case senderName = "sender_name"
        case channelName = "channel_name"
        case threadTitle = "thread_title"
    }

    /// Decodes an answer.
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` when a required member is missing or of
    ///   the wrong type, or the mode is `none` or unknown (a preview with
    ///   mode `none` is never fetched).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let modeText = try container.decode(String.self, forKey: .mode)
        guard let mode = PreviewMode(rawValue: modeText), mode != .none else {
            throw DecodingError.dataCorruptedError(forKey: .mode, in: container, debugDescription: "unknown mode")
        }
        guard container.contains(.threadTitle) else {
            throw DecodingError.keyNotFound(
                CodingKeys.threadTitle, .init(codingPath: container.codingPath, debugDescription: "missing"))
        }
        content = PushPreviewContent(
            mode: mode, senderName: try container.decode(String.self, forKey: .senderName),
            threadTitle: try container.decodeIfPresent(String.self, forKey: .threadTitle),
            channelName: try container.decode(String.self, forKey: .channelName),
            excerpt: try container.decodeIfPresent(String.self, forKey: .excerpt),
            webURL: (try? container.decodeIfPresent(String.self, forKey: .webURL)) ?? nil)
    }
}

/// The answer of getSettings (`GET /api/v1/settings`): the person's
/// notification settings (the part a client reads).
public struct SettingsAnswer: Decodable, Hashable, Sendable {
    /// Notification settings.
    public struct Notify: Decodable, Hashable, Sendable {
        /// `full`, `names` or `none`.
        public var previewMode: String

        enum CodingKeys: String, CodingKey {
            case previewMode = "preview_mode"
        }
    }

    /// Notification settings.
    public var notify: Notify
}
