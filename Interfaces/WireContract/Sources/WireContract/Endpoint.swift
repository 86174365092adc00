/// An operation with its body types: what a request of it carries and what
/// a success answers, so both sides encode and decode the same types.
public protocol Endpoint {
    /// The request body (``NoBody`` when there is none, ``NotJSON`` for bytes).
    associatedtype Request: Codable & Sendable
    /// The body of a success (``NoBody`` for `204`, ``NotJSON`` for a page).
    associatedtype Answer: Codable & Sendable
    /// The operation.
    static var operation: WireOperation { get }
}

/// No body at all (a `GET`, a `204`, a `202` without content).
public struct NoBody: Codable, Hashable, Sendable {
    /// Makes the marker.
    public init() {}
}

/// A body that is not JSON: an upload part's bytes, a page for browsers.
public struct NotJSON: Codable, Hashable, Sendable {
    /// Makes the marker.
    public init() {}
}

/// One ``Endpoint`` per operation, named like it.
public enum Endpoints {
    /// getHealth.
    public enum GetHealth: Endpoint {
        public typealias Request = NoBody
        public typealias Answer = Health
        public static var operation: WireOperation { .getHealth }
    }
    /// login.
    public enum Login: Endpoint {
        public typealias Request = LoginRequest
        public typealias Answer = TokenPair
        public static var operation: WireOperation { .login }
    }
    /// refreshToken.
    public enum RefreshToken: Endpoint {
        public typealias Request = RefreshRequest
        public typealias Answer = TokenPair
        public static var operation: WireOperation { .refreshToken }
    }
    /// createExtensionSession.
    public enum CreateExtensionSession: Endpoint {
        public typealias Request = ExtensionSessionRequest
        public typealias Answer = TokenPair
        public static var operation: WireOperation { .createExtensionSession }
    }
    /// logout.
    public enum Logout: Endpoint {
        public typealias Request = NoBody
        public typealias Answer = NoBody
        public static var operation: WireOperation { .logout }
    }
    /// listAudit.
    public enum ListAudit: Endpoint {
        public typealias Request = NoBody
        public typealias Answer = AuditList
        public static var operation: WireOperation { .listAudit }
    }
    /// getInstanceLimits.
    public enum GetInstanceLimits: Endpoint {
        public typealias Request = NoBody
        public typealias Answer = InstanceLimits
        public static var operation: WireOperation { .getInstanceLimits }
    }
    /// listSpaces.
    public enum ListSpaces: Endpoint {
        public typealias Request = NoBody
        public typealias Answer = [SpaceBody]
        public static var operation: WireOperation { .listSpaces }
    }
    /// searchThreadTitles.
    public enum SearchThreadTitles: Endpoint {
        public typealias Request = NoBody
        public typealias Answer = [ThreadSearchResult]
        public static var operation: WireOperation { .searchThreadTitles }
    }
    /// listMessages.
    public enum ListMessages: Endpoint {
        public typealias Request = NoBody
        public typealias Answer = MessageList
        public static var operation: WireOperation { .listMessages }
    }
    /// listChannelMessages.
    public enum ListChannelMessages: Endpoint {
        public typealias Request = NoBody
        public typealias Answer = MessageList
        public static var operation: WireOperation { .listChannelMessages }
    }
    /// createMessage.
    public enum CreateMessage: Endpoint {
        public typealias Request = MessageCreate
        public typealias Answer = MessageEnvelope
        public static var operation: WireOperation { .createMessage }
    }
    /// createChannelMessage.
    public enum CreateChannelMessage: Endpoint {
        public typealias Request = MessageCreate
        public typealias Answer = MessageEnvelope
        public static var operation: WireOperation { .createChannelMessage }
    }
    /// createThread.
    public enum CreateThread: Endpoint {
        public typealias Request = ThreadCreate
        public typealias Answer = ThreadCreated
        public static var operation: WireOperation { .createThread }
    }
    /// createUpload.
    public enum CreateUpload: Endpoint {
        public typealias Request = UploadCreate
        public typealias Answer = UploadCreated
        public static var operation: WireOperation { .createUpload }
    }
    /// uploadPart: the part's bytes in, JSON out.
    public enum UploadPart: Endpoint {
        public typealias Request = NotJSON
        public typealias Answer = UploadPartReceived
        public static var operation: WireOperation { .uploadPart }
    }
    /// getUpload.
    public enum GetUpload: Endpoint {
        public typealias Request = NoBody
        public typealias Answer = UploadStatus
        public static var operation: WireOperation { .getUpload }
    }
    /// completeUpload.
    public enum CompleteUpload: Endpoint {
        public typealias Request = NoBody
        public typealias Answer = UploadCompleted
        public static var operation: WireOperation { .completeUpload }
    }
    /// abortUpload.
    public enum AbortUpload: Endpoint {
        public typealias Request = NoBody
        public typealias Answer = NoBody
        public static var operation: WireOperation { .abortUpload }
    }
    /// listEvents.
    public enum ListEvents: Endpoint {
        public typealias Request = NoBody
        public typealias Answer = EventList
        public static var operation: WireOperation { .listEvents }
    }
    /// getSettings.
    public enum GetSettings: Endpoint {
        public typealias Request = NoBody
        public typealias Answer = SettingsBody
        public static var operation: WireOperation { .getSettings }
    }
    /// updateSettings.
    public enum UpdateSettings: Endpoint {
        public typealias Request = SettingsPatch
        public typealias Answer = SettingsBody
        public static var operation: WireOperation { .updateSettings }
    }
    /// registerPush.
    public enum RegisterPush: Endpoint {
        public typealias Request = PushRegistration
        public typealias Answer = PushRegistrationCreated
        public static var operation: WireOperation { .registerPush }
    }
    /// unregisterPush.
    public enum UnregisterPush: Endpoint {
        public typealias Request = NoBody
        public typealias Answer = NoBody
        public static var operation: WireOperation { .unregisterPush }
    }
    /// getPushPreview.
    public enum GetPushPreview: Endpoint {
        public typealias Request = NoBody
        public typealias Answer = PushPreviewBody
        public static var operation: WireOperation { .getPushPreview }
    }
    /// sendTestPush.
    public enum SendTestPush: Endpoint {
        public typealias Request = TestPushRequest
        public typealias Answer = TestPushSent
        public static var operation: WireOperation { .sendTestPush }
    }
    /// submitClientMetrics.
    public enum SubmitClientMetrics: Endpoint {
        public typealias Request = ClientMetrics
        public typealias Answer = NoBody
        public static var operation: WireOperation { .submitClientMetrics }
    }
    /// getMessagePage: a page for browsers.
    public enum GetMessagePage: Endpoint {
        public typealias Request = NoBody
        public typealias Answer = NotJSON
        public static var operation: WireOperation { .getMessagePage }
    }

    /// Every endpoint, in ``WireOperation`` order (a test checks one per operation).
    public static var all: [any Endpoint.Type] {
        [
            GetHealth.self, Login.self, RefreshToken.self, CreateExtensionSession.self, Logout.self, ListAudit.self,
            GetInstanceLimits.self, ListSpaces.self, SearchThreadTitles.self, ListMessages.self,
            ListChannelMessages.self, CreateMessage.self, CreateChannelMessage.self, CreateThread.self,
            CreateUpload.self, UploadPart.self, GetUpload.self, CompleteUpload.self, AbortUpload.self,
            ListEvents.self, GetSettings.self, UpdateSettings.self, RegisterPush.self, UnregisterPush.self,
            GetPushPreview.self, SendTestPush.self, SubmitClientMetrics.self, GetMessagePage.self,
        ]
    }
}
