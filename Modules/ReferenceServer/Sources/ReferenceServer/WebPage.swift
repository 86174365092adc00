import Foundation
import ShareKitCore
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitWireContract

/// The HTML of the web reader's pages (``WebReader``) and getMessagePage:
/// one frame, one stylesheet, escaping, redirects and form bodies.
enum WebPage {
    /// The pages' only stylesheet, served at ``stylesheetPath`` (allowed as
    /// `'self'` by ``contentSecurityPolicy``; an inline one would need
    /// `'unsafe-inline'` or a hash). A message shown by its link's anchor is
    /// highlighted (`:target`).
    static let stylesheet = """
        body{font:16px/1.45 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f}
        article{border:1px solid #d0d0d7;border-radius:8px;padding:.5rem .8rem;margin:.6rem 0}
        article:target{border-color:#0a64d6;background:#eef5ff}
        .text{white-space:pre-wrap;overflow-wrap:anywhere;margin:.3rem 0}
        time{color:#666;font-size:.85em}
        .problem{color:#a00000}
        nav{display:flex;gap:1rem;justify-content:space-between;align-items:center}
        nav form{margin:0}
        input,button{font:inherit;padding:.3rem}

        """
    /// Where the stylesheet is served.
    static let stylesheetPath = WebReaderPath.stylesheet

    /// The Content-Security-Policy of every page: nothing may load or run
    /// (no script from anywhere, inline or not) but this origin's
    /// stylesheet, forms go only to this origin, and no other site may
    /// frame a page.
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    /// `GET /web/style.css`.
    static func stylesheetResponse() -> HTTPResponse {
        var fields = headers
        fields.set("Content-Type", "text/css; charset=utf-8")
        fields.set("Cache-Control", "max-age=3600")
        return HTTPResponse(status: 200, headers: fields, body: .bytes(Array(stylesheet.utf8)))
    }

    /// The headers every page sends. The referrer goes to this origin only
    /// (`same-origin`): with `no-referrer` a browser sends `Origin: null`
    /// with the login form, which ``WebReader/isSameOrigin(_:_:)`` refuses.
    static var headers: HTTPFields {
        [
            "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store",
            "Content-Security-Policy": contentSecurityPolicy, "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "same-origin", "X-Frame-Options": "DENY",
        ]
    }

    /// Text made safe for HTML, in element content and in quoted attribute
    /// values (ShareCore's `TerminalText.htmlEscaped`, as notification bodies).
    static func escape(_ text: String) -> String { TerminalText.htmlEscaped(text) }

    /// A whole page.
    /// - Parameters:
    ///   - title: the page's title (escaped here).
    ///   - body: the page's HTML, every user text in it already escaped.
    ///   - user: the signed-in person, for the bar with the logout button.
    static func page(status: HTTPStatus, title: String, body: String, user: String? = nil) -> HTTPResponse {
        var bar = ""
        if let user {
            bar = """
                <nav><span>Signed in as <strong>\(escape(user))</strong></span>\
                <form method="post" action="\(WebReader.logoutPath)"><button type="submit">Sign out</button></form></nav>

                """
        }
        let html = """
            <!doctype html>
            <html lang="en">
            <head><meta charset="utf-8"><meta name="robots" content="noindex">\
            <meta name="viewport" content="width=device-width, initial-scale=1">\
            <title>ShareKit: \(escape(title))</title><link rel="stylesheet" href="\(stylesheetPath)"></head>
            <body>
            \(bar)<main>
            \(body)</main>
            </body>
            </html>

            """
        return HTTPResponse(status: status, headers: headers, body: .bytes(Array(html.utf8)))
    }

    /// A short page that says why a request was refused.
    static func refused(_ status: HTTPStatus, _ reason: String) -> HTTPResponse {
        page(
            status: status, title: "Not available",
            body:
                "<h1>Not available</h1>\n<p>\(escape(reason))</p>\n<p><a href=\"\(WebReader.threadsPath)\">All threads</a></p>\n"
        )
    }

    /// `303 See Other` to a path of this server (after a form post, the
    /// browser asks with GET).
    static func redirect(_ location: String) -> HTTPResponse {
        var fields = headers
        fields.set("Location", location)
        return HTTPResponse(status: 303, headers: fields)
    }

    /// The fields of an `application/x-www-form-urlencoded` body; the last
    /// value of a name wins, anything that does not decode is left out.
    static func form(_ body: [UInt8]) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ part: Substring) -> String? {
                part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            }
            guard let name = parts.first.flatMap(decoded) else { continue }
            fields[name] = parts.count == 2 ? decoded(parts[1]) : ""
        }
        return fields
    }
}
