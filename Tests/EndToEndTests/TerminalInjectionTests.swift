import Foundation
import ShareKitClientTestSupport
import ShareKitPushPreview
import ShareKitPushPreviewInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// Text other users wrote (a forum post's title here) reaches `share`'s
/// terminal output as characters, never as escape sequences; `--json`
/// keeps it exactly.
@Suite("other users' text is shown, never obeyed")
struct TerminalInjectionTests {
    static let hostileTitle = "Evil \u{1B}]0;pwned\u{07}\u{1B}[2J post \u{202E}txt.exe"

    @Test("a post title with OSC, CSI and a bidi override: share send and share targets escape it; --json keeps it")
    func postTitle() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let sent = try fixture.share(["send", "--text", "x", "--to", "new-post:c2", "--new-post", Self.hostileTitle])
        #expect(sent.status == 0, "\(sent.stderr)")
        let listed = try fixture.share(["targets", "--search", "Evil"])
        #expect(listed.status == 0, "\(listed.stderr)")
        for output in [sent.stdout, listed.stdout] {
            #expect(!output.contains("\u{1B}") && !output.contains("\u{07}") && !output.contains("\u{202E}"))
        }
        #expect(listed.stdout.contains(#"Evil \u{1B}]0;pwned\u{07}\u{1B}[2J post \u{202E}txt.exe"#), "\(listed.stdout)")
        let json = try fixture.share(["targets", "--search", "Evil", "--json"])
        let decoded = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]] ?? []
        let paths = decoded.compactMap { $0["display_path"] as? String }
        #expect(paths.contains { $0.hasSuffix(Self.hostileTitle) }, "--json keeps the exact text: \(paths)")
    }

    @Test(
        "share status: session ids the server chose, with OSC, CSI and a bidi override, are escaped; --json keeps them")
    func statusSessionIDs() throws {
        let sandbox = try ClientSandbox(prefix: "status-injection-test")
        defer { sandbox.close() }
        let hostileID = "ses\u{1B}]0;pwned\u{07}\u{1B}[2J\u{202E}dis"
        let body = """
            {"session_id":"ses\\u001b]0;pwned\\u0007\\u001b[2J\\u202edis","access_token":"hostile-access",\
            "refresh_token":"hostile-refresh","token_type":"DPoP","expires_in":600,"refresh_expires_in":86400}
            """
        let hostile = try HostileServer([
            HostileServer.Route("POST", "/api/v1/auth/login", HostileServer.Answer(200, body)),
            HostileServer.Route("POST", "/api/v1/auth/extension-sessions", HostileServer.Answer(201, body)),
        ])
        defer { hostile.stop() }
        let share = BuiltProducts.path("share")
        let login = try runProcess(
            share, ["login", "--server", hostile.origin, "--user", "alex", "--password-stdin"],
            environment: sandbox.environment, stdin: "alex-demo-pass\n")
        #expect(login.status == 0, "\(login.stderr)")
        let status = try runProcess(share, ["status"], environment: sandbox.environment)
        #expect(status.status == 0, "\(status.stderr)")
        for output in [status.stdout, status.stderr] {
            #expect(!output.contains("\u{1B}") && !output.contains("\u{07}") && !output.contains("\u{202E}"))
        }
        #expect(
            status.stdout.contains(#"parent session: ses\u{1B}]0;pwned\u{07}\u{1B}[2J\u{202E}dis"#), "\(status.stdout)")
        let json = try runProcess(share, ["status", "--json"], environment: sandbox.environment)
        let object = (try? JSONSerialization.jsonObject(with: Data(json.stdout.utf8))) as? [String: Any]
        #expect(
            (object?["parent"] as? [String: Any])?["session_id"] as? String == hostileID, "--json keeps the exact id")
    }

    @Test("a notification body with markup and controls is passed as text, not markup")
    func notificationBody() {
        let shown = RenderedNotification(
            title: "Alex \u{1B}[31min #general", body: #"<a href="https://evil.example">win</a> & more"#,
            threadID: "t1\u{1B}", badge: nil, sound: nil, kind: "message", nid: "n1", outcome: .preview)
        let arguments = NotificationPresenter.arguments(shown)
        #expect(
            arguments.suffix(2) == [
                #"Alex \u{1B}[31min #general"#,
                "&lt;a href=&quot;https://evil.example&quot;&gt;win&lt;/a&gt; &amp; more",
            ])
        #expect(!arguments.joined().contains("\u{1B}"))
    }
}
