import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitWireContract

/// One request as a route handler sees it: the head, the buffered body,
/// the contract's route (with the values of the path's placeholders), and
/// who is calling once the route has authenticated.
struct RequestContext {
    let head: HTTPRequestHead
    let body: [UInt8]
    let route: Route

    /// The value of the path's `{name}` placeholder ("" when the route has none).
    func parameter(_ name: String) -> String { route.parameter(name) ?? "" }

    func query(_ name: String) -> String? {
        head.queryItems.last(where: { $0.name == name })?.value
    }

    /// Whether a value from the path or the query can equal something
    /// stored. Nothing stored holds U+0000 (request bodies with one are
    /// refused), and PostgreSQL cannot take it as a parameter, so a value
    /// with one matches nothing and is never bound.
    static func canMatchStored(_ value: String) -> Bool { !value.utf8.contains(0) }
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
