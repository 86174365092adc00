import HTTPServerInterface

/// The upload protocol (PROTOCOL.md "Uploads").
enum UploadRoutes {
    static func prepareUploadPart(_ server: ReferenceServer, head: HTTPRequestHead, parameters: [String: String]) throws
        -> HTTPBodyDisposition
    {
        .reject(HTTPProblem(status: 501, code: "not_implemented", title: "Not implemented yet").response())
    }
    static func create(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        throw HTTPProblem(status: 501, code: "not_implemented", title: "Not implemented yet")
    }
    static func part(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        throw HTTPProblem(status: 501, code: "not_implemented", title: "Not implemented yet")
    }
    static func get(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        throw HTTPProblem(status: 501, code: "not_implemented", title: "Not implemented yet")
    }
    static func complete(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        throw HTTPProblem(status: 501, code: "not_implemented", title: "Not implemented yet")
    }
    static func abort(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        throw HTTPProblem(status: 501, code: "not_implemented", title: "Not implemented yet")
    }
}
