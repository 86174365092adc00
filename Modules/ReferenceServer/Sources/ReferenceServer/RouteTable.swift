import ShareKitHTTPServerInterface
import ShareKitWireContract

/// The handler of every operation of the wire contract. The contract
/// (`WireContract`'s `WireOperation` and `Route`) owns the paths and methods;
/// this switch is exhaustive, so an operation without a handler does not build.
enum RouteTable {
    typealias Handler = @Sendable (ReferenceServer, RequestContext) throws -> HTTPResponse

    /// The handler of an operation.
    /// - Parameter operation: the operation.
    /// - Returns: the function that answers it.
    static func handler(for operation: WireOperation) -> Handler {
        switch operation {
        case .getHealth: CatalogRoutes.health
        case .login: AuthRoutes.login
        case .refreshToken: AuthRoutes.refresh
        case .createExtensionSession: AuthRoutes.createExtensionSession
        case .logout: AuthRoutes.logout
        case .listAudit: AuthRoutes.listAudit
        case .getInstanceLimits: CatalogRoutes.instanceLimits
        case .listSpaces: CatalogRoutes.listSpaces
        case .searchThreadTitles: CatalogRoutes.searchThreadTitles
        case .listMessages: CatalogRoutes.listThreadMessages
        case .listChannelMessages: CatalogRoutes.listChannelMessages
        case .createMessage: MessageRoutes.createThreadMessage
        case .createChannelMessage: MessageRoutes.createChannelMessage
        case .createThread: MessageRoutes.createThread
        case .createUpload: UploadRoutes.create
        case .uploadPart: UploadRoutes.part
        case .getUpload: UploadRoutes.get
        case .completeUpload: UploadRoutes.complete
        case .abortUpload: UploadRoutes.abort
        case .listEvents: EventRoutes.list
        case .getSettings: EventRoutes.getSettings
        case .updateSettings: EventRoutes.updateSettings
        case .registerPush: PushRoutes.register
        case .unregisterPush: PushRoutes.unregister
        case .getPushPreview: PushRoutes.preview
        case .sendTestPush: PushRoutes.sendTest
        case .submitClientMetrics: PushRoutes.submitMetrics
        case .getMessagePage: WebRoutes.messagePage
        }
    }

    /// The contract's route of a request.
    /// - Parameter head: the request head.
    /// - Returns: what the contract's match found.
    static func lookup(_ head: HTTPRequestHead) -> RouteMatch {
        Route.match(method: head.method.rawValue, segments: head.pathSegments)
    }
}
