/// One request's route: an ``WireOperation`` with the values of its path
/// parameters, typed by name.
///
/// The client builds a request's path from a route (``path``); the server
/// finds the route of a request with ``Route/match(method:segments:)`` and
/// keys its handlers by ``operation``. Values are kept as sent (decoded
/// text): an upload part's number is the segment's text, because the
/// server answers a number out of range with its own problem
/// (`invalid_part`) rather than `404`.
public enum Route: Hashable, Sendable {
    /// getHealth.
    case getHealth
    /// login.
    case login
    /// refreshToken.
    case refreshToken
    /// createExtensionSession.
    case createExtensionSession
    /// logout.
    case logout
    /// listAudit.
    case listAudit
    /// getInstanceLimits.
    case getInstanceLimits
    /// listSpaces.
    case listSpaces
    /// searchThreadTitles.
    case searchThreadTitles
    /// listMessages of a thread.
    case listMessages(threadID: String)
    /// listChannelMessages of a channel's main timeline.
    case listChannelMessages(channelID: String)
    /// createMessage in a thread.
    case createMessage(threadID: String)
    /// createChannelMessage on a channel's main timeline.
    case createChannelMessage(channelID: String)
    /// createThread in a forum channel.
    case createThread(channelID: String)
    /// createUpload.
    case createUpload
    /// uploadPart: part `part` (decimal, from 1) of an upload.
    case uploadPart(uploadID: String, part: String)
    /// getUpload.
    case getUpload(uploadID: String)
    /// completeUpload.
    case completeUpload(uploadID: String)
    /// abortUpload.
    case abortUpload(uploadID: String)
    /// listEvents.
    case listEvents
    /// getSettings.
    case getSettings
    /// updateSettings.
    case updateSettings
    /// registerPush.
    case registerPush
    /// unregisterPush of one registration.
    case unregisterPush(registrationID: String)
    /// getPushPreview.
    case getPushPreview
    /// sendTestPush.
    case sendTestPush
    /// submitClientMetrics.
    case submitClientMetrics
    /// getMessagePage of one message.
    case getMessagePage(messageID: String)

    /// uploadPart with a part number, as the client sends it.
    /// - Parameters:
    ///   - uploadID: the upload.
    ///   - number: the part's number, from 1.
    /// - Returns: the route.
    public static func uploadPart(uploadID: String, number: Int) -> Route {
        .uploadPart(uploadID: uploadID, part: String(number))
    }

    /// The operation.
    public var operation: WireOperation {
        switch self {
        case .getHealth: .getHealth
        case .login: .login
        case .refreshToken: .refreshToken
        case .createExtensionSession: .createExtensionSession
        case .logout: .logout
        case .listAudit: .listAudit
        case .getInstanceLimits: .getInstanceLimits
        case .listSpaces: .listSpaces
        case .searchThreadTitles: .searchThreadTitles
        case .listMessages: .listMessages
        case .listChannelMessages: .listChannelMessages
        case .createMessage: .createMessage
        case .createChannelMessage: .createChannelMessage
        case .createThread: .createThread
        case .createUpload: .createUpload
        case .uploadPart: .uploadPart
        case .getUpload: .getUpload
        case .completeUpload: .completeUpload
        case .abortUpload: .abortUpload
        case .listEvents: .listEvents
        case .getSettings: .getSettings
        case .updateSettings: .updateSettings
        case .registerPush: .registerPush
        case .unregisterPush: .unregisterPush
        case .getPushPreview: .getPushPreview
        case .sendTestPush: .sendTestPush
        case .submitClientMetrics: .submitClientMetrics
        case .getMessagePage: .getMessagePage
        }
    }

    /// The values of the path parameters, in the template's order.
    public var parameters: [String] {
        switch self {
        case .listMessages(let id), .createMessage(let id): [id]
        case .listChannelMessages(let id), .createChannelMessage(let id), .createThread(let id): [id]
        case .uploadPart(let id, let part): [id, part]
        case .getUpload(let id), .completeUpload(let id), .abortUpload(let id): [id]
        case .unregisterPush(let id), .getMessagePage(let id): [id]
        case .getHealth, .login, .refreshToken, .createExtensionSession, .logout, .listAudit, .getInstanceLimits,
            .listSpaces, .searchThreadTitles, .createUpload, .listEvents, .getSettings, .updateSettings,
            .registerPush, .getPushPreview, .sendTestPush, .submitClientMetrics:
            []
        }
    }

    /// The value of the template's `{name}` placeholder (`"id"`, `"n"`), or nil when there is none.
    /// - Parameter name: the placeholder's name.
    /// - Returns: the value as sent.
    public func parameter(_ name: String) -> String? {
        guard let index = operation.parameterNames.firstIndex(of: name) else { return nil }
        return parameters[index]
    }

    /// Makes the route of an operation from its parameter values.
    /// - Parameters:
    ///   - operation: the operation.
    ///   - parameters: one value per placeholder, in the template's order.
    /// - Returns: the route, or nil when the number of values is not the operation's.
    public init?(_ operation: WireOperation, parameters: [String]) {
        guard parameters.count == operation.parameterNames.count else { return nil }
        let first = parameters.first ?? ""
        switch operation {
        case .getHealth: self = .getHealth
        case .login: self = .login
        case .refreshToken: self = .refreshToken
        case .createExtensionSession: self = .createExtensionSession
        case .logout: self = .logout
        case .listAudit: self = .listAudit
        case .getInstanceLimits: self = .getInstanceLimits
        case .listSpaces: self = .listSpaces
        case .searchThreadTitles: self = .searchThreadTitles
        case .listMessages: self = .listMessages(threadID: first)
        case .listChannelMessages: self = .listChannelMessages(channelID: first)
        case .createMessage: self = .createMessage(threadID: first)
        case .createChannelMessage: self = .createChannelMessage(channelID: first)
        case .createThread: self = .createThread(channelID: first)
        case .createUpload: self = .createUpload
        case .uploadPart: self = .uploadPart(uploadID: first, part: parameters[1])
        case .getUpload: self = .getUpload(uploadID: first)
        case .completeUpload: self = .completeUpload(uploadID: first)
        case .abortUpload: self = .abortUpload(uploadID: first)
        case .listEvents: self = .listEvents
        case .getSettings: self = .getSettings
        case .updateSettings: self = .updateSettings
        case .registerPush: self = .registerPush
        case .unregisterPush: self = .unregisterPush(registrationID: first)
        case .getPushPreview: self = .getPushPreview
        case .sendTestPush: self = .sendTestPush
        case .submitClientMetrics: self = .submitClientMetrics
        case .getMessagePage: self = .getMessagePage(messageID: first)
        }
    }

    /// The request path: the template with every parameter percent-encoded
    /// (``WirePath/encode(_:)``), e.g. `/api/v1/threads/t%201/messages`.
    public var path: String {
        var values = parameters.makeIterator()
        var out = ""
        for segment in operation.segments {
            out += "/"
            switch segment {
            case .literal(let text): out += text
            case .placeholder: out += WirePath.encode(values.next() ?? "")
            }
        }
        return out
    }

    /// The request path with a query (items with a nil value left out).
    /// - Parameter query: names and values, each value percent-encoded.
    /// - Returns: ``path``, then `?name=value&…` when an item has a value.
    public func path(query: [(String, String?)]) -> String {
        WirePath.query(path, query)
    }
}
