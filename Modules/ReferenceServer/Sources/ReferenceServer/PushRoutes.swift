import HTTPServerInterface

/// Push registration, previews, test pushes and client metrics (PROTOCOL.md "Push").
enum PushRoutes {
    static func register(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        throw HTTPProblem(status: 501, code: "not_implemented", title: "Not implemented yet")
    }
    static func unregister(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        throw HTTPProblem(status: 501, code: "not_implemented", title: "Not implemented yet")
    }
    static func preview(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        throw HTTPProblem(status: 501, code: "not_implemented", title: "Not implemented yet")
    }
    static func sendTest(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        throw HTTPProblem(status: 501, code: "not_implemented", title: "Not implemented yet")
    }
    static func submitMetrics(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        throw HTTPProblem(status: 501, code: "not_implemented", title: "Not implemented yet")
    }
}
