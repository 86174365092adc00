import HTTPServerInterface

/// createMessage, createChannelMessage and createThread (PROTOCOL.md "Messages").
enum MessageRoutes {
    static func createThreadMessage(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        throw HTTPProblem(status: 501, code: "not_implemented", title: "Not implemented yet")
    }
    static func createChannelMessage(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        throw HTTPProblem(status: 501, code: "not_implemented", title: "Not implemented yet")
    }
    static func createThread(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        throw HTTPProblem(status: 501, code: "not_implemented", title: "Not implemented yet")
    }
}
