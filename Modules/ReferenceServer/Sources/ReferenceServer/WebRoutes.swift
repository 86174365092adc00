import HTTPServerInterface
import HTTPTypes
import WireContract

/// Web links (docs/protocol.md, "Web links"): where a browser opens a
/// message in its thread. A message answer and a push preview carry the
/// link as `web_url`, a path on the server's origin; a notification's
/// default action opens it.
///
/// The reference server has no web client, and a browser brings no DPoP
/// session, so its page for a message shows no content: it names the
/// message and says where to read it. It answers the same for every
/// well-formed id, so it does not tell whether a message exists.
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

    /// `GET /web/messages/{id}`: the page a message's web link opens.
    /// Not authenticated (a browser has no DPoP key), so it holds no content.
    static func messagePage(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        let id = context.parameter("id")
        guard isWellFormed(id) else { throw Problems.notFound("A page for this id") }
        let page = """
            <!doctype html>
            <html lang="en">
            <head><meta charset="utf-8"><meta name="robots" content="noindex"><title>ShareKit: message \(id)</title></head>
            <body>
            <main>
            <h1>Message \(id)</h1>
            <p>This link opens the message in its thread. This server has no web client: read the thread in a ShareKit client.</p>
            </main>
            </body>
            </html>

            """
        return HTTPResponse(
            status: 200,
            headers: [
                "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store",
                "Content-Security-Policy": "default-src 'none'", "X-Content-Type-Options": "nosniff",
                "Referrer-Policy": "no-referrer",
            ], body: .bytes(Array(page.utf8)))
    }
}
