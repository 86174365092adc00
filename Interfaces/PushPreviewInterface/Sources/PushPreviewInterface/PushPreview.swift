/// What a person chose notifications to show (`notify.preview_mode`).
public enum PreviewMode: String, Sendable, CaseIterable {
    /// Sender, thread, channel and an excerpt of the message.
    case full
    /// Sender, thread and channel, no excerpt.
    case names
    /// Nothing: the notifier makes no request and shows the placeholder.
    case none
}

/// The answer of getPushPreview: exactly the members the server sent.
/// `excerpt` is there only in mode `full`, `threadTitle` is nil for a
/// message on a channel's main timeline.
public struct PushPreviewContent: Sendable, Equatable {
    /// The mode the server answered for (`full` or `names`).
    public var mode: PreviewMode
    /// The sender's display name.
    public var senderName: String
    /// The thread's title, nil on a channel's main timeline.
    public var threadTitle: String?
    /// The channel's name.
    public var channelName: String
    /// The start of the message's text (mode `full` only).
    public var excerpt: String?
    /// `web_url` as the server sent it: where a browser opens the thread at
    /// the message, a path on the server's origin. Unchecked here: the
    /// notifier offers it only after checking it against the registration's origin.
    public var webURL: String?

    /// Makes a preview.
    public init(
        mode: PreviewMode, senderName: String, threadTitle: String?, channelName: String, excerpt: String?,
        webURL: String? = nil
    ) {
        self.mode = mode
        self.senderName = senderName
        self.threadTitle = threadTitle
        self.channelName = channelName
        self.excerpt = excerpt
        self.webURL = webURL
    }
}

/// How a preview fetch ended.
public enum PreviewFetchResult: Sendable, Equatable {
    /// The server answered the preview.
    case content(PushPreviewContent)
    /// `404`: the message is gone or no longer visible.
    case notAvailable
    /// Anything else: the placeholder stays.
    case failed(PreviewFailure)
}

/// Why no preview could be shown; each keeps the placeholder.
public enum PreviewFailure: Sendable, Equatable, CustomStringConvertible {
    /// `client.push.fetch_timeout` ran out before an answer arrived.
    case deadline
    /// No answer: no network, a closed port, a cut connection.
    case network
    /// A status other than `200` and `404`.
    case status(Int)
    /// A `200` whose body lacks a required member or is not JSON.
    case invalidResponse
    /// No preview token is stored for the push's instance.
    case noRegistration
    /// The push names no message (`b.m`).
    case noMessage

    /// A short reason for logs (no ids, no content).
    public var description: String {
        switch self {
        case .deadline: return "deadline"
        case .network: return "network"
        case .status(let code): return "status \(code)"
        case .invalidResponse: return "invalid_response"
        case .noRegistration: return "no_registration"
        case .noMessage: return "no_message"
        }
    }
}
