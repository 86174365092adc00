import Foundation
import ShareKitCore
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitSQLInterface
import ShareKitWireContract

/// The web reader (docs/protocol.md, "Web reader"): where a notification's
/// click lands. A browser has no DPoP key, so the reader has a login page
/// of its own and a session cookie; behind it, the threads a person can
/// read and each thread with its messages, the message of the link in view.
///
/// Its pages are for browsers, not part of the wire contract: they are
/// answered before the contract's routes are looked up (``route(_:)``).
/// - The login checks the password and counts failures exactly as the API's
///   login (``AuthRoutes/checkPassword(_:username:password:address:)``).
/// - The cookie holds a random token whose hash alone is stored
///   (`web_sessions`); it is `HttpOnly`, `SameSite=Strict`, and `Secure`
///   unless the server's origin is on loopback, where browsers have no TLS
///   and treat `http://127.0.0.1` as a secure context anyway.
/// - Everything a user wrote is escaped (``WebPage/escape(_:)``); every page
///   sends a Content-Security-Policy that allows no script at all and only
///   the reader's own stylesheet.
/// - A form post from another origin is refused (`Origin`), so another site
///   can neither log a browser in nor out.
enum WebReader {
    /// The session cookie's name.
    static let cookieName = "sharekit_web"
    /// How long a web session lasts, in seconds: a working day.
    static let sessionSeconds: Int64 = 12 * 3600
    /// The most messages a thread page shows (the newest).
    static let maxMessages = 500
    /// The longest form body the login takes, in bytes.
    static let maxFormBytes = 8192

    /// The reader's paths (the contract's ``ShareKitWireContract/WebReaderPath``).
    static let loginPath = WebReaderPath.login
    static let logoutPath = WebReaderPath.logout
    static let threadsPath = WebReaderPath.threads

    /// The handler of a request for one of the reader's pages, nil for any other request.
    /// - Parameter head: the request head.
    /// - Returns: the handler, which takes the server, the head and the body.
    static func route(_ head: HTTPRequestHead) -> ((ReferenceServer, HTTPRequestHead, [UInt8]) throws -> HTTPResponse)?
    {
        let segments = head.pathSegments
        guard segments.first == "web" else { return nil }
        let method = head.method.rawValue
        switch (method, Array(segments.dropFirst())) {
        case ("GET", ["style.css"]): return { _, _, _ in WebPage.stylesheetResponse() }
        case ("GET", ["login"]): return { server, head, _ in loginPage(server, head, problem: nil, status: 200) }
        case ("POST", ["login"]): return login
        case ("POST", ["logout"]): return logout
        case ("GET", ["threads"]): return threadList
        case ("GET", let path) where path.count == 2 && (path[0] == "threads" || path[0] == "channels"):
            return { server, head, _ in try timeline(server, head, kind: path[0], id: path[1]) }
        default:
            return nil
        }
    }

    // MARK: Sessions

    /// The user of the request's web session, nil without a live one.
    static func user(_ server: ReferenceServer, _ head: HTTPRequestHead) throws -> String? {
        guard let token = cookie(head), RequestContext.canMatchStored(token) else { return nil }
        return try server.db.query(
            "SELECT username FROM web_sessions WHERE token_hash = ? AND expires_at > ?",
            [.text(try server.ids.hash(token)), .integer(server.now)]
        ).first?.get("username", as: String.self)
    }

    /// The value of the session cookie, if the request carries it.
    static func cookie(_ head: HTTPRequestHead) -> String? {
        for header in head.headers where header.name.lowercased() == "cookie" {
            for pair in header.value.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == cookieName {
                    return String(parts[1]).trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return nil
    }

    /// The `Set-Cookie` value for a session token (empty with `Max-Age=0`: the cookie goes).
    static func setCookie(_ server: ReferenceServer, token: String, maxAge: Int64) -> String {
        var value = "\(cookieName)=\(token); Path=/web; Max-Age=\(maxAge); HttpOnly; SameSite=Strict"
        if !isLoopback(server.publicOrigin) { value += "; Secure" }
        return value
    }

    /// Whether an origin's host is a loopback address (`127.0.0.0/8`, `[::1]`, `localhost`).
    static func isLoopback(_ origin: String) -> Bool {
        guard let host = URLComponents(string: origin)?.host?.lowercased() else { return false }
        return host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }

    /// Whether a form post comes from the server's own pages: browsers send
    /// `Origin` with every POST; one naming another origin is refused.
    static func isSameOrigin(_ server: ReferenceServer, _ head: HTTPRequestHead) -> Bool {
        guard let origin = head.headers["Origin"] else { return true }
        return origin == server.publicOrigin
    }

    // MARK: Login and logout

    /// `POST /web/login` (a form: `username`, `password`, `next`).
    static func login(_ server: ReferenceServer, _ head: HTTPRequestHead, _ body: [UInt8]) throws -> HTTPResponse {
        guard isSameOrigin(server, head) else { return WebPage.refused(403, "This form was sent from another site.") }
        guard body.count <= maxFormBytes else { return WebPage.refused(413, "The form is too large.") }
        let form = WebPage.form(body)
        let username = form["username"] ?? ""
        let password = form["password"] ?? ""
        guard !username.isEmpty, !password.isEmpty, RequestContext.canMatchStored(username) else {
            return loginPage(
                server, head, problem: "Enter your username and password.", status: 400, next: form["next"])
        }
        let attempt: LoginThrottle.Attempt
        do {
            attempt = try AuthRoutes.checkPassword(
                server, username: username, password: password, address: head.remoteAddress?.host ?? "unknown")
        } catch let throttled as ProblemResponse {
            var page = loginPage(
                server, head, problem: "Too many failed logins. Try again later.", status: 429, next: form["next"])
            if let retry = throttled.response.headers["Retry-After"] { page.headers.set("Retry-After", retry) }
            return page
        } catch let problem as HTTPProblem where problem.status == 401 {
            return loginPage(server, head, problem: "Wrong username or password.", status: 401, next: form["next"])
        }
        let token = try server.ids.token()
        try server.db.transaction {
            try LoginThrottle.recordSuccess(server, attempt)
            try server.db.execute("DELETE FROM web_sessions WHERE expires_at <= ?", [.integer(server.now)])
            try server.db.execute(
                "INSERT INTO web_sessions (token_hash, username, created_at, expires_at) VALUES (?, ?, ?, ?)",
                [
                    .text(try server.ids.hash(token)), .text(username), .integer(server.now),
                    .integer(server.now + sessionSeconds),
                ])
        }
        var response = WebPage.redirect(safeNext(form["next"]))
        response.headers.set("Set-Cookie", setCookie(server, token: token, maxAge: sessionSeconds))
        return response
    }

    /// `POST /web/logout`: ends the web session and goes back to the login page.
    static func logout(_ server: ReferenceServer, _ head: HTTPRequestHead, _ body: [UInt8]) throws -> HTTPResponse {
        guard isSameOrigin(server, head) else { return WebPage.refused(403, "This form was sent from another site.") }
        if let token = cookie(head), RequestContext.canMatchStored(token) {
            try server.db.execute("DELETE FROM web_sessions WHERE token_hash = ?", [.text(try server.ids.hash(token))])
        }
        var response = WebPage.redirect(loginPath)
        response.headers.set("Set-Cookie", setCookie(server, token: "", maxAge: 0))
        return response
    }

    /// Where a login goes next: a page of the reader, never another site
    /// (`//host`, `/\host`) and never anything a header could not hold.
    static func safeNext(_ next: String?) -> String {
        guard let next, next.hasPrefix(WebReaderPath.base + "/"), next.utf8.count <= 2048,
            next.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && $0 != "\\" && $0 != "\"" }),
            !next.contains("//")
        else { return threadsPath }
        return next
    }

    /// The login page, with a problem to show and the page to go to after.
    static func loginPage(
        _ server: ReferenceServer, _ head: HTTPRequestHead, problem: String?, status: HTTPStatus,
        next: String? = nil
    ) -> HTTPResponse {
        let target = safeNext(next ?? head.queryValue("next"))
        var html = "<h1>Sign in</h1>\n"
        if let problem { html += "<p class=\"problem\" role=\"alert\">\(WebPage.escape(problem))</p>\n" }
        html += """
            <form method="post" action="\(loginPath)">
            <input type="hidden" name="next" value="\(WebPage.escape(target))">
            <p><label for="username">Username</label><br><input id="username" name="username" autocomplete="username" required></p>
            <p><label for="password">Password</label><br><input id="password" name="password" type="password" autocomplete="current-password" required></p>
            <p><button type="submit" id="sign-in">Sign in</button></p>
            </form>

            """
        return WebPage.page(status: status, title: "Sign in", body: html)
    }

    // MARK: Pages

    /// `GET /web/threads`: the channels and threads the person can read.
    static func threadList(_ server: ReferenceServer, _ head: HTTPRequestHead, _ body: [UInt8]) throws -> HTTPResponse {
        guard let username = try user(server, head) else { return WebPage.redirect(loginPath) }
        let rows = try server.db.query(
            """
            SELECT c.id AS channel_id, c.name AS channel_name, s.name AS space_name, t.id AS thread_id, t.title
            FROM channel_access a JOIN channels c ON c.id = a.channel_id JOIN spaces s ON s.id = c.space_id
            LEFT JOIN threads t ON t.channel_id = c.id
            WHERE a.username = ? AND a.can_read = 1
            ORDER BY s.name, c.name, c.id, t.title, t.id
            """, [.text(username)])
        var html = "<h1>Threads</h1>\n"
        var channel: String?
        for row in rows {
            let channelID = try row.get("channel_id", as: String.self)
            if channelID != channel {
                if channel != nil { html += "</ul>\n" }
                channel = channelID
                let name =
                    "\(try row.get("space_name", as: String.self)) › \(try row.get("channel_name", as: String.self))"
                html +=
                    "<h2><a href=\"\(WebPage.escape(WebReaderPath.channel(channelID)))\">\(WebPage.escape(name))</a></h2>\n<ul>\n"
            }
            if let threadID = try row.get("thread_id", as: String?.self) {
                let title = try row.get("title", as: String?.self) ?? threadID
                html +=
                    "<li><a href=\"\(WebPage.escape(WebReaderPath.thread(threadID)))\">\(WebPage.escape(title))</a></li>\n"
            }
        }
        if channel != nil { html += "</ul>\n" }
        return WebPage.page(status: 200, title: "Threads", body: html, user: username)
    }

    /// `GET /web/threads/{id}` and `GET /web/channels/{id}` (a channel's
    /// main timeline): the newest messages, oldest first, each with its id
    /// as anchor, so a link ending in `#m_…` shows that message (and
    /// highlights it, `:target`).
    static func timeline(_ server: ReferenceServer, _ head: HTTPRequestHead, kind: String, id: String) throws
        -> HTTPResponse
    {
        guard let username = try user(server, head) else {
            let page = kind == "threads" ? WebReaderPath.thread(id) : WebReaderPath.channel(id)
            return WebPage.redirect(WebRoutes.isWellFormed(id) ? WebReaderPath.login(next: page) : loginPath)
        }
        guard WebRoutes.isWellFormed(id) else { return WebPage.refused(404, "There is no such page.") }
        let heading: String
        let messages: [SQLRow]
        if kind == "threads" {
            guard
                let thread = try server.db.query(
                    """
                    SELECT t.title, c.name FROM threads t JOIN channels c ON c.id = t.channel_id
                    JOIN channel_access a ON a.channel_id = c.id AND a.username = ? AND a.can_read = 1
                    WHERE t.id = ?
                    """, [.text(username), .text(id)]
                ).first
            else { return WebPage.refused(404, "There is no such thread, or you cannot read it.") }
            heading = "\(try thread.get("name", as: String.self)) › \(try thread.get("title", as: String.self))"
            messages = try server.db.query(
                "SELECT id, sender, text, created_at FROM messages WHERE thread_id = ? ORDER BY seq DESC LIMIT ?",
                [.text(id), .integer(Int64(maxMessages))])
        } else {
            guard
                let channel = try server.db.query(
                    """
                    SELECT c.name FROM channels c
                    JOIN channel_access a ON a.channel_id = c.id AND a.username = ? AND a.can_read = 1
                    WHERE c.id = ?
                    """, [.text(username), .text(id)]
                ).first
            else { return WebPage.refused(404, "There is no such channel, or you cannot read it.") }
            heading = try channel.get("name", as: String.self)
            messages = try server.db.query(
                """
                SELECT id, sender, text, created_at FROM messages WHERE channel_id = ? AND thread_id IS NULL
                ORDER BY seq DESC LIMIT ?
                """, [.text(id), .integer(Int64(maxMessages))])
        }
        var html = "<p><a href=\"\(threadsPath)\">All threads</a></p>\n<h1>\(WebPage.escape(heading))</h1>\n"
        if messages.isEmpty { html += "<p>No messages yet.</p>\n" }
        for row in messages.reversed() {
            let messageID = try row.get("id", as: String.self)
            html += """
                <article id="\(WebPage.escape(messageID))">
                <header><strong class="sender">\(WebPage.escape(try row.get("sender", as: String.self)))</strong> <time>\(WebPage.escape(try row.get("created_at", as: String.self)))</time></header>
                <p class="text">\(WebPage.escape(try row.get("text", as: String.self)))</p>
                </article>

                """
        }
        return WebPage.page(status: 200, title: heading, body: html, user: username)
    }

    /// Where a message's web link leads: its thread's page (its channel's
    /// on a main timeline) with the message's anchor, for a person who can
    /// read it; the login page first for a browser without a session (the
    /// same answer for every id, so it tells nothing about messages).
    static func messageLocation(_ server: ReferenceServer, _ head: HTTPRequestHead, id: String) throws -> HTTPResponse {
        guard let username = try user(server, head) else {
            return WebPage.redirect(WebReaderPath.login(next: WebRoutes.messagePath(id)))
        }
        guard
            let row = try server.db.query(
                """
                SELECT m.channel_id, m.thread_id FROM messages m
                JOIN channel_access a ON a.channel_id = m.channel_id AND a.username = ? AND a.can_read = 1
                WHERE m.id = ?
                """, [.text(username), .text(id)]
            ).first
        else { return WebPage.refused(404, "This message is not available: it is gone, or you cannot read it.") }
        let page =
            try row.get("thread_id", as: String?.self).map { WebReaderPath.thread($0) }
            ?? WebReaderPath.channel(try row.get("channel_id", as: String.self))
        return WebPage.redirect(page + "#" + id)
    }
}
