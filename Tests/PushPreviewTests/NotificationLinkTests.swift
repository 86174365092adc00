import ShareKitPushPreview
import Testing

/// The check between a server's `web_url` and the command line of the
/// program that opens it.
@Suite("notification link")
struct NotificationLinkTests {
    static let origin = "http://127.0.0.1:8080"

    @Test(
        "paths on the origin and absolute links on exactly that origin are taken",
        arguments: [
            ("/web/messages/m_1", "http://127.0.0.1:8080/web/messages/m_1"),
            ("/web/threads/t1?message=m_1#m_1", "http://127.0.0.1:8080/web/threads/t1?message=m_1#m_1"),
            ("/web/a%20b", "http://127.0.0.1:8080/web/a%20b"),
            ("http://127.0.0.1:8080/web/m", "http://127.0.0.1:8080/web/m"),
            ("HTTP://127.0.0.1:8080/web/m", "http://127.0.0.1:8080/web/m"),
        ])
    func taken(_ webURL: String, _ link: String) {
        #expect(NotificationLink.resolve(webURL, origin: Self.origin) == link)
    }

    @Test(
        "anything that could leave the origin, change the scheme or smuggle characters is refused",
        arguments: [
            "", "web/m", "//evil.example/m", "/\\evil.example/m", "https://127.0.0.1:8080/web/m",
            "http://127.0.0.1:80801/web/m", "http://127.0.0.1:8080@evil.example/web/m", "http://127.0.0.1:8080",
            "http://evil.example/web/m", "javascript:alert(1)", "file:///etc/passwd", "data:text/html,x",
            "/web/m n", "/web/m\"", "/web/<m>", "/web/m\u{0}", "/web/m\n", "/web/m\u{1b}[2J", "/web/\u{202e}m",
            "/web/é", "/web/%", "/web/%2", "/web/%zz", "/" + String(repeating: "a", count: 2048),
        ])
    func refused(_ webURL: String) {
        #expect(NotificationLink.resolve(webURL, origin: Self.origin) == nil)
    }

    @Test(
        "an origin that is not plain http(s)://authority gives no link",
        arguments: [
            "ftp://127.0.0.1:21", "http://", "http://127.0.0.1:8080/path", "http://user@127.0.0.1", "127.0.0.1:8080",
        ])
    func badOrigins(_ origin: String) {
        #expect(NotificationLink.resolve("/web/m", origin: origin) == nil)
    }
}
