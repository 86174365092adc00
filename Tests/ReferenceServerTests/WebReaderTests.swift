import Foundation
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// The web reader behind a message's `web_url` (docs/protocol.md, "Web
/// reader"), over raw HTTP: no redirect followed, no cookie kept, so every
/// answer is seen as a browser gets it. Tests/ReferenceServerTests/Browser
/// drives the same pages in a real headless Chromium.
@Suite("reference server: web reader")
struct WebReaderTests {
    /// One raw request; the cookie, when given, as a browser sends it.
    static func page(
        _ server: ServerProcess, _ path: String, method: String = "GET", cookie: String? = nil,
        form: [String: String]? = nil, origin: String? = nil
    ) throws -> SourceAddressClient.Answer {
        var headers: [String: String] = [:]
        if let cookie { headers["Cookie"] = cookie }
        if let origin { headers["Origin"] = origin }
        var body = Data()
        if let form {
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._~")
            body = Data(
                form.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }
                    .joined(separator: "&").utf8)
        }
        return try SourceAddressClient.send(
            method, origin: server.origin, path: path, body: body,
            contentType: form == nil ? nil : "application/x-www-form-urlencoded", headers: headers)
    }

    /// Signs in through the login form; returns the `name=value` of the session cookie.
    static func signIn(_ server: ServerProcess, _ username: String, next: String = "/web/threads") throws -> String {
        let answer = try page(
            server, "/web/login", method: "POST",
            form: ["username": username, "password": "\(username)-demo-pass", "next": next], origin: server.origin)
        try #require(answer.status == 303, "login: \(answer.status) \(answer.body)")
        let cookie = try #require(answer.headers["set-cookie"])
        return String(cookie.split(separator: ";")[0])
    }

    @Test(
        "login page, session cookie, the thread with the message in view, everything escaped, a strict CSP",
        arguments: ServerEngine.allCases)
    func readerFlow(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine)
        defer { server.stop() }
        let alex = try await TestClient.demo("alex", on: server)
        let hostile = "<script>alert(\"x\")</script> & 'quoted'"
        let message = try await Push.message(alex, in: "/api/v1/threads/t1/messages", text: hostile)
        let link = "/web/messages/\(message)"

        // No session: the login page first, the same for any id (no oracle).
        let first = try Self.page(server, link)
        #expect(first.status == 303)
        #expect(first.headers["location"] == "/web/login?next=\(link)")
        #expect(
            try Self.page(server, "/web/messages/m_not_there").headers["location"]
                == "/web/login?next=/web/messages/m_not_there")
        #expect(try Self.page(server, "/web/threads").headers["location"] == "/web/login")

        let login = try Self.page(server, "/web/login?next=\(link)")
        #expect(login.status == 200)
        let csp = try #require(login.headers["content-security-policy"])
        #expect(csp.contains("default-src 'none'") && !csp.contains("script-src") && !csp.contains("unsafe"))
        #expect(login.headers["x-content-type-options"] == "nosniff")
        #expect(login.body.contains("name=\"next\" value=\"\(link)\""))
        #expect(!login.body.contains("<script"))

        // A wrong password: the form again, no cookie.
        let wrong = try Self.page(
            server, "/web/login", method: "POST", form: ["username": "alex", "password": "nope", "next": link],
            origin: server.origin)
        #expect(wrong.status == 401)
        #expect(wrong.headers["set-cookie"] == nil)
        #expect(wrong.body.contains("Wrong username or password."))
        // Another site's form is refused before any password is looked at.
        let foreign = try Self.page(
            server, "/web/login", method: "POST",
            form: ["username": "alex", "password": "alex-demo-pass"], origin: "https://evil.example")
        #expect(foreign.status == 403)
        #expect(foreign.headers["set-cookie"] == nil)

        let signedIn = try Self.page(
            server, "/web/login", method: "POST",
            form: ["username": "alex", "password": "alex-demo-pass", "next": link],
            origin: server.origin)
        #expect(signedIn.status == 303)
        #expect(signedIn.headers["location"] == link)
        let setCookie = try #require(signedIn.headers["set-cookie"])
        let attributes = Set(setCookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(attributes.isSuperset(of: ["HttpOnly", "SameSite=Strict", "Path=/web"]), "\(setCookie)")
        #expect(!attributes.contains("Secure"), "no Secure on loopback: browsers have no TLS there")
        let cookie = String(setCookie.split(separator: ";")[0])

        // The link, signed in: the thread, the message's anchor.
        let located = try Self.page(server, link, cookie: cookie)
        #expect(located.status == 303)
        #expect(located.headers["location"] == "/web/threads/t1#\(message)")
        let thread = try Self.page(server, "/web/threads/t1", cookie: cookie)
        #expect(thread.status == 200)
        #expect(thread.headers["content-security-policy"] == csp)
        #expect(thread.body.contains("<article id=\"\(message)\">"))
        #expect(
            thread.body.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;"),
            "\(thread.body)")
        #expect(!thread.body.contains("<script"), "the message's <script> is text, never markup")
        #expect(thread.body.contains("resume the gateway"))
        let list = try Self.page(server, "/web/threads", cookie: cookie)
        #expect(list.status == 200 && list.body.contains("href=\"/web/threads/t1\""))

        // A login's next is a page of the reader, never another site.
        for next in ["//evil.example/x", "https://evil.example", "/web/\\evil", "/api/v1/events"] {
            let elsewhere = try Self.page(
                server, "/web/login", method: "POST",
                form: ["username": "alex", "password": "alex-demo-pass", "next": next],
                origin: server.origin)
            #expect(elsewhere.headers["location"] == "/web/threads", "\(next)")
        }

        // Robin cannot read c2: neither its thread nor its message.
        let forum = try await Push.message(alex, in: "/api/v1/threads/t3/messages", text: "forum secret")
        let robin = try Self.signIn(server, "robin")
        #expect(try Self.page(server, "/web/threads/t3", cookie: robin).status == 404)
        let hidden = try Self.page(server, "/web/messages/\(forum)", cookie: robin)
        #expect(hidden.status == 404 && !hidden.body.contains("forum secret"))
        #expect(try Self.page(server, "/web/threads/t1", cookie: "sharekit_web=forged").status == 303)

        // Sign out: the cookie goes and the session with it.
        let out = try Self.page(server, "/web/logout", method: "POST", cookie: cookie, origin: server.origin)
        #expect(out.status == 303 && out.headers["set-cookie"]?.contains("Max-Age=0") == true)
        #expect(try Self.page(server, "/web/threads/t1", cookie: cookie).status == 303)
    }

    @Test("the web login and the API's login share one throttle; off loopback the cookie is Secure")
    func throttleAndSecure() async throws {
        let seed = UploadFlow.seed(extra: [
            "login_throttle": [
                "failures_per_user": 3, "failures_per_address": 1000, "base_delay_seconds": 60,
                "max_delay_seconds": 120,
            ]
        ])
        let server = try await ServerProcess.start(.sqlite, seed: seed)
        defer { server.stop() }
        let sam = UploadFlow.passwords["sam"] ?? ""
        var statuses: [Int] = []
        for _ in 0..<3 {
            statuses.append(
                try Self.page(
                    server, "/web/login", method: "POST", form: ["username": "sam", "password": "wrong"],
                    origin: server.origin
                ).status)
        }
        let blocked = try Self.page(
            server, "/web/login", method: "POST", form: ["username": "sam", "password": sam], origin: server.origin)
        statuses.append(blocked.status)
        #expect(statuses == [401, 401, 401, 429], "\(statuses)")
        #expect(blocked.headers["retry-after"] != nil)
        #expect(blocked.headers["set-cookie"] == nil)
        // The API's login counts the same failures: blocked too.
        #expect(try SourceAddressClient.login(server, from: "127.0.0.1", "sam", sam).status == 429)

        let directory = try TemporaryDirectory(prefix: "web-secure")
        let publicOrigin = "https://chat.example.com"
        let remote = try await ServerProcess.start(
            .sqlite, extraArguments: ["--public-origin", publicOrigin], directory: directory)
        defer { remote.stop() }
        let login = try Self.page(
            remote, "/web/login", method: "POST", form: ["username": "alex", "password": "alex-demo-pass"],
            origin: publicOrigin)
        #expect(login.status == 303)
        #expect(login.headers["set-cookie"]?.contains("; Secure") == true, "\(login.headers)")
    }
}
