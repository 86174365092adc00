import Foundation
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// The web reader in a real headless Chromium (Debian's `chromium`, driven
/// through `chromedriver` by tools/web-reader/browse.py): the login, the
/// thread page with the link's message in view, and a message holding a
/// `<script>` shown as text, never run.
@Suite("reference server: web reader in Chromium")
struct WebReaderBrowserTests {
    static let script =
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("tools/web-reader/browse.py").path

    @Test("a message's link: the login page, then the thread with the message in view; its <script> is text")
    func linkInChromium() async throws {
        let server = try await ServerProcess.start(.sqlite)
        defer { server.stop() }
        let alex = try await TestClient.demo("alex", on: server)
        _ = try await Push.message(alex, in: "/api/v1/threads/t1/messages", text: "an earlier message")
        let hostile = "<script>document.title='taken over'</script><img src=x onerror=\"document.title='img'\">"
        let message = try await Push.message(alex, in: "/api/v1/threads/t1/messages", text: hostile)

        let result = try runProcess(
            "/usr/bin/python3",
            [
                Self.script, "--url", server.origin + "/web/messages/\(message)", "--user", "alex", "--password-stdin",
                "--json",
            ],
            stdin: "alex-demo-pass\n")
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        // The browser was sent to the login page first.
        #expect(report["login_url"] as? String == server.origin + "/web/login?next=/web/messages/\(message)")
        #expect(report["login_title"] as? String == "ShareKit: Sign in")
        // Then to the thread, the message's anchor in view and highlighted.
        #expect(report["url"] as? String == server.origin + "/web/threads/t1#\(message)", "\(report)")
        #expect(report["title"] as? String == "ShareKit: Gateway › resume the gateway")
        let target = try #require(report["target"] as? [String: Any], "\(report)")
        #expect(target["in_view"] as? Bool == true && target["highlighted"] as? Bool == true)
        // The markup is the message's text, character for character; nothing of it ran.
        #expect(target["text"] as? String == hostile)
        #expect(report["scripts"] as? Int == 0)
        #expect(report["title_untouched"] as? Bool == true)
    }
}
