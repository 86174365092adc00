import Foundation
import PushPreview
import PushPreviewInterface
import SystemTesting
import TestSupport
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
