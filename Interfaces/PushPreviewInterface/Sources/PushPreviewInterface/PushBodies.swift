public import ShareKitWireContract

/// The body of registerPush: the wire contract's type (its name there,
/// `PushRegistration`, is this interface's stored registration).
public typealias RegisterPushBody = ShareKitWireContract.PushRegistration

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

/// The answer of getPushPreview: the wire contract's type, decoded
/// strictly (``ShareKitWireContract/PushPreviewBody/init(from:)``: the mode is
/// `full` or `names`, `thread_title` present, a `web_url` that is not a
/// string ignored).
public typealias PushPreviewAnswer = PushPreviewBody

extension PushPreviewBody {
    /// The content for the notifier. A decoded answer's mode is always
    /// `full` or `names`; a body made in code with another mode reads as
    /// `names`.
    public var content: PushPreviewContent {
        PushPreviewContent(
            mode: PreviewMode(rawValue: mode).flatMap { $0 == .none ? nil : $0 } ?? .names, senderName: senderName,
            threadTitle: threadTitle, channelName: channelName, excerpt: excerpt, webURL: webURL)
    }
}

/// The answer of getSettings (`GET /api/v1/settings`): the person's
/// notification settings. The wire contract's type, decoded as strictly as
/// before (`notify.preview_mode` a string, required).
public typealias SettingsAnswer = SettingsBody
