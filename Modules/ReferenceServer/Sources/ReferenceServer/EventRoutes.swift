import HTTPServerInterface

/// The event long poll and the settings (PROTOCOL.md "Events", "Settings").
enum EventRoutes {
    static func list(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        throw HTTPProblem(status: 501, code: "not_implemented", title: "Not implemented yet")
    }
    static func getSettings(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        throw HTTPProblem(status: 501, code: "not_implemented", title: "Not implemented yet")
    }
    static func updateSettings(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        throw HTTPProblem(status: 501, code: "not_implemented", title: "Not implemented yet")
    }
}
