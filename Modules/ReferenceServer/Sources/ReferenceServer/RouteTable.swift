import HTTPServerInterface
import HTTPTypes

/// The route table: every operation of the contract with its handler.
/// `ReferenceServer.routes` and the OpenAPI test read it, so the document and
/// the code cannot drift apart silently.
enum RouteTable {
    typealias Handler = @Sendable (ReferenceServer, RequestContext) throws -> HTTPResponse

    struct Entry: Sendable {
        let description: RouteDescription
        let handler: Handler

        init(_ operationID: String, _ method: HTTPMethod, _ template: String, _ handler: @escaping Handler) {
            description = RouteDescription(operationID: operationID, method: method, template: template)
            self.handler = handler
        }
    }

    enum Lookup {
        case found(Entry, [String: String])
        case wrongMethod(allowed: [String])
        case notFound
    }

    static let all: [Entry] = [
        Entry("getHealth", .get, "/api/v1/health", CatalogRoutes.health),
        Entry("login", .post, "/api/v1/auth/login", AuthRoutes.login),
        Entry("refreshToken", .post, "/api/v1/auth/refresh", AuthRoutes.refresh),
        Entry("createExtensionSession", .post, "/api/v1/auth/extension-sessions", AuthRoutes.createExtensionSession),
        Entry("logout", .post, "/api/v1/auth/logout", AuthRoutes.logout),
        Entry("listAudit", .get, "/api/v1/audit", AuthRoutes.listAudit),
        Entry("getInstanceLimits", .get, "/api/v1/instance/limits", CatalogRoutes.instanceLimits),
        Entry("listSpaces", .get, "/api/v1/spaces", CatalogRoutes.listSpaces),
        Entry("searchThreadTitles", .get, "/api/v1/threads/search", CatalogRoutes.searchThreadTitles),
        Entry("listMessages", .get, "/api/v1/threads/{id}/messages", CatalogRoutes.listThreadMessages),
        Entry("listChannelMessages", .get, "/api/v1/channels/{id}/messages", CatalogRoutes.listChannelMessages),
        Entry("createMessage", .post, "/api/v1/threads/{id}/messages", MessageRoutes.createThreadMessage),
        Entry("createChannelMessage", .post, "/api/v1/channels/{id}/messages", MessageRoutes.createChannelMessage),
        Entry("createThread", .post, "/api/v1/channels/{id}/threads", MessageRoutes.createThread),
        Entry("createUpload", .post, "/api/v1/uploads", UploadRoutes.create),
        Entry("uploadPart", .put, "/api/v1/uploads/{id}/parts/{n}", UploadRoutes.part),
        Entry("getUpload", .get, "/api/v1/uploads/{id}", UploadRoutes.get),
        Entry("completeUpload", .post, "/api/v1/uploads/{id}/complete", UploadRoutes.complete),
        Entry("abortUpload", .delete, "/api/v1/uploads/{id}", UploadRoutes.abort),
        Entry("listEvents", .get, "/api/v1/events", EventRoutes.list),
        Entry("getSettings", .get, "/api/v1/settings", EventRoutes.getSettings),
        Entry("updateSettings", .patch, "/api/v1/settings", EventRoutes.updateSettings),
        Entry("registerPush", .post, "/api/v1/push/registrations", PushRoutes.register),
        Entry("unregisterPush", .delete, "/api/v1/push/registrations/{id}", PushRoutes.unregister),
        Entry("getPushPreview", .get, "/api/v1/push/preview", PushRoutes.preview),
        Entry("sendTestPush", .post, "/api/v1/push/test", PushRoutes.sendTest),
        Entry("submitClientMetrics", .post, "/api/v1/client-metrics", PushRoutes.submitMetrics),
        Entry("getMessagePage", .get, "/web/messages/{id}", WebRoutes.messagePage),
    ]

    static func lookup(_ head: HTTPRequestHead) -> Lookup {
        var allowed: [String] = []
        for entry in all {
            // An id with U+0000 names nothing (RequestContext.canMatchStored).
            guard let parameters = entry.description.match(head.pathSegments),
                parameters.values.allSatisfy(RequestContext.canMatchStored)
            else { continue }
            if entry.description.method == head.method { return .found(entry, parameters) }
            allowed.append(entry.description.method.rawValue)
        }
        return allowed.isEmpty ? .notFound : .wrongMethod(allowed: allowed)
    }

    static func resolve(_ head: HTTPRequestHead) -> (Entry, [String: String])? {
        if case .found(let entry, let parameters) = lookup(head) { return (entry, parameters) }
        return nil
    }
}
