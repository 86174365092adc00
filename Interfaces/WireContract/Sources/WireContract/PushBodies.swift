// The bodies of the push operations: registerPush, getPushPreview,
// sendTestPush, submitClientMetrics.

/// The body of registerPush (`PushRegistration`).
public struct PushRegistration: Codable, Hashable, Sendable {
    /// `apns`, `fcm` or `test`.
    public var provider: String
    /// The push service's device token.
    public var token: String
    /// The environment, e.g. `production`.
    public var environment: String
    /// The app's bundle id.
    public var appID: String

    /// Makes a body.
    /// - Parameters:
    ///   - provider: the push service.
    ///   - token: the device token.
    ///   - environment: the environment.
    ///   - appID: the bundle id.
    public init(provider: String, token: String, environment: String, appID: String) {
        self.provider = provider
        self.token = token
        self.environment = environment
        self.appID = appID
    }

    private enum CodingKeys: String, CodingKey {
        case provider, token, environment
        case appID = "app_id"
    }
}

/// The answer of registerPush (`PushRegistrationCreated`).
public struct PushRegistrationCreated: Codable, Hashable, Sendable {
    /// The registration.
    public var registrationID: String
    /// The token for getPushPreview.
    public var previewToken: String

    /// Makes an answer.
    /// - Parameters:
    ///   - registrationID: the registration.
    ///   - previewToken: the preview token.
    public init(registrationID: String, previewToken: String) {
        self.registrationID = registrationID
        self.previewToken = previewToken
    }

    private enum CodingKeys: String, CodingKey {
        case registrationID = "registration_id"
        case previewToken = "preview_token"
    }
}

/// The answer of getPushPreview (`PushPreview`).
public struct PushPreviewBody: Codable, Hashable, Sendable {
    /// `full` or `names`.
    public var mode: String
    /// The sender's name.
    public var senderName: String
    /// The thread's title, or nil on a channel's main timeline (written as `null`).
    public var threadTitle: String?
    /// The channel's name.
    public var channelName: String
    /// The start of the text, only with mode `full` (left out otherwise).
    public var excerpt: String?
    /// The message's web link, or nil (left out).
    public var webURL: String?

    /// Makes an answer.
    /// - Parameters:
    ///   - mode: the mode.
    ///   - senderName: the sender.
    ///   - threadTitle: the thread's title, or nil.
    ///   - channelName: the channel.
    ///   - excerpt: the excerpt, or nil.
    ///   - webURL: the web link, or nil.
    public init(
        mode: String, senderName: String, threadTitle: String?, channelName: String, excerpt: String?,
        webURL: String?
    ) {
        self.mode = mode
        self.senderName = senderName
        self.threadTitle = threadTitle
        self.channelName = channelName
        self.excerpt = excerpt
        self.webURL = webURL
    }

    private enum CodingKeys: String, CodingKey {
        case mode, excerpt
        case senderName = "sender_name"
        case threadTitle = "thread_title"
        case channelName = "channel_name"
        case webURL = "web_url"
    }

    /// Decodes a preview strictly against its schema, as the clients
    /// always have: `mode` (`full` or `names`; a preview with mode `none`
    /// is never fetched), `sender_name`, `channel_name` and `thread_title`
    /// (a string or null, but present) are required, `excerpt` is optional;
    /// a `web_url` that is not a string counts as absent (the notification
    /// then has no link). Unknown members are ignored.
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` when a required member is missing or of
    ///   the wrong type, or the mode is not `full` or `names`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        mode = try container.decode(String.self, forKey: .mode)
        guard mode == "full" || mode == "names" else {
            throw DecodingError.dataCorruptedError(forKey: .mode, in: container, debugDescription: "unknown mode")
        }
        guard container.contains(.threadTitle) else {
            throw DecodingError.keyNotFound(
                CodingKeys.threadTitle, .init(codingPath: container.codingPath, debugDescription: "missing"))
        }
        senderName = try container.decode(String.self, forKey: .senderName)
        threadTitle = try container.decodeIfPresent(String.self, forKey: .threadTitle)
        channelName = try container.decode(String.self, forKey: .channelName)
        excerpt = try container.decodeIfPresent(String.self, forKey: .excerpt)
        webURL = (try? container.decodeIfPresent(String.self, forKey: .webURL)) ?? nil
    }

    /// Encodes the answer: `thread_title` is `null` when absent; `excerpt` and `web_url` are left out.
    /// - Parameter encoder: the encoder.
    /// - Throws: what the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(channelName, forKey: .channelName)
        try container.encodeIfPresent(excerpt, forKey: .excerpt)
        try container.encode(mode, forKey: .mode)
        try container.encode(senderName, forKey: .senderName)
        try container.encode(threadTitle, forKey: .threadTitle)
        try container.encodeIfPresent(webURL, forKey: .webURL)
    }
}

/// The body of sendTestPush (`TestPushRequest`).
public struct TestPushRequest: Codable, Hashable, Sendable {
    /// The message the push is about.
    public var messageID: String

    /// Makes a body.
    /// - Parameter messageID: the message.
    public init(messageID: String) { self.messageID = messageID }

    private enum CodingKeys: String, CodingKey { case messageID = "message_id" }
}

/// The answer of sendTestPush (`TestPushSent`).
public struct TestPushSent: Codable, Hashable, Sendable {
    /// The notification id of the push.
    public var nid: String

    /// Makes an answer.
    /// - Parameter nid: the notification id.
    public init(nid: String) { self.nid = nid }
}

/// The body of submitClientMetrics (`ClientMetrics`).
public struct ClientMetrics: Codable, Hashable, Sendable {
    /// One metric (`ClientMetric`).
    public struct Metric: Codable, Hashable, Sendable {
        /// The attributes the server keeps (others are dropped).
        public struct Attributes: Codable, Hashable, Sendable {
            /// The platform.
            public var platform: String
            /// The app's version.
            public var appVersion: String

            /// Makes the attributes.
            /// - Parameters:
            ///   - platform: the platform.
            ///   - appVersion: the version.
            public init(platform: String, appVersion: String) {
                self.platform = platform
                self.appVersion = appVersion
            }

            private enum CodingKeys: String, CodingKey {
                case platform
                case appVersion = "app_version"
            }
        }

        /// The metric's name.
        public var name: String
        /// Its value.
        public var value: Double
        /// Its unit.
        public var unit: String
        /// Its attributes.
        public var attributes: Attributes

        /// Makes a metric.
        /// - Parameters:
        ///   - name: the name.
        ///   - value: the value.
        ///   - unit: the unit.
        ///   - attributes: the attributes.
        public init(name: String, value: Double, unit: String, attributes: Attributes) {
            self.name = name
            self.value = value
            self.unit = unit
            self.attributes = attributes
        }
    }

    /// The metrics.
    public var metrics: [Metric]

    /// Makes a body.
    /// - Parameter metrics: the metrics.
    public init(metrics: [Metric]) { self.metrics = metrics }
}
