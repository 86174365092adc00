import HTTPServerInterface
import HTTPTypes

/// One request as a route handler sees it: the head, the buffered body,
/// the values of the path's placeholders, and who is calling once the
/// route has authenticated.
struct RequestContext {
    let head: HTTPRequestHead
    let body: [UInt8]
    let parameters: [String: String]
    let route: RouteDescription

    func parameter(_ name: String) -> String { parameters[name] ?? "" }

    func query(_ name: String) -> String? {
        head.queryItems.last(where: { $0.name == name })?.value
    }
}

/// The session behind an authenticated request.
struct AuthenticatedSession: Sendable {
    let sessionID: String
    let username: String
    let familyID: String
    let parentID: String?
    let clientComponent: String
    let jkt: String
}
