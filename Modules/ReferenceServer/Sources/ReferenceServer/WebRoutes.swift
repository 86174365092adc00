import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitWireContract

/// Web links (docs/protocol.md, "Web links"): where a browser opens a
/// message in its thread. A message answer and a push preview carry the
/// link as `web_url`, a path on the server's origin; a notification's
/// default action opens it.
///
/// A browser brings no DPoP session: the link leads through the web
/// reader's login (``WebReader``) to the message in its thread.
enum WebRoutes {
    /// The longest message id a web link takes.
    static let maxIDLength = 128

    /// The `web_url` of a message: an origin-relative path, getMessagePage's.
    /// Server ids are letters, digits, `_` and `-`, which the contract's
    /// percent-encoding leaves as they are.
    static func messagePath(_ id: String) -> String { Route.getMessagePage(messageID: id).path }

    /// Whether an id can be part of a web link (what the route accepts).
    static func isWellFormed(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= maxIDLength
            && id.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                    return true
                default:
                    return false
                }
            }
    }

    /// `GET /web/messages/{id}`: the page a message's web link opens. A
    /// browser signed in to the web reader goes on to the message in its
    /// thread (``WebReader/messageLocation(_:_:id:)``); one without a session
    /// goes to the login page first, which answers the same for every
    /// well-formed id, so it does not tell whether a message exists.
    static func messagePage(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        let id = context.parameter("id")
        guard isWellFormed(id) else { return WebPage.refused(404, "There is no such page.") }
        return try WebReader.messageLocation(server, context.head, id: id)
    }
}
