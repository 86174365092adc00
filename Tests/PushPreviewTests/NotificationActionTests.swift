import Foundation
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitHTTPInterface
import ShareKitPushPreview
import ShareKitPushPreviewInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// What a notification does beyond its text, with the notify-send and
/// xdg-open stand-ins: a click opens the message's web link (only a link on
/// the server's own origin), the interruption level sets the urgency,
/// `sound` the sound hint, and hostile payload values are range-checked.
@Suite("notification actions, urgency and sound")
struct NotificationActionTests {
    @Test("a click on the notification opens the message's web link; the server answers it with its login")
    func clickOpensWebLink() async throws {
        let fixture = try await PushFixture()
        defer { fixture.close() }
        let notifications = fixture.sandbox.home.file("notifications")
        let opened = fixture.sandbox.home.file("opened")
        let environment = [
            NotificationPresenter.commandVariable: try StandIns.notifier(fixture, record: notifications, click: true),
            NotificationPresenter.openCommandVariable: try StandIns.opener(fixture, record: opened),
        ]
        let link = fixture.origin + "/web/messages/" + fixture.messageID

        let json = PushFixture.json(try fixture.notify(fixture.payload()))
        #expect(json["link"] as? String == link, "\(json)")
        let clicked = try fixture.notify(fixture.payload(), [], environment: environment)
        #expect(clicked.status == 0, "\(clicked.stderr)")
        #expect(StandIns.calls(notifications).last?.contains("--action=default=Open") == true)
        #expect(StandIns.lines(opened) == [link])

        // A browser without a session goes to the web reader's login first.
        let page = try runProcess("/usr/bin/curl", ["-s", "-w", "%{http_code} %{redirect_url}", link])
        #expect(
            page.stdout == "303 \(fixture.origin)/web/login?next=/web/messages/\(fixture.messageID)", "\(page.stdout)")
        #expect(!page.stdout.contains(PushFixture.excerpt), "the answer holds no content")

        let german = try fixture.notify(
            fixture.payload(), [], environment: environment.merging(["LANG": "de_DE.UTF-8"]) { $1 })
        #expect(german.status == 0, "\(german.stderr)")
        #expect(StandIns.calls(notifications).last?.contains("--action=default=Öffnen") == true)

        let noWait = try fixture.notify(fixture.payload(), ["--no-wait"], environment: environment)
        #expect(noWait.status == 0, "\(noWait.stderr)")
        #expect(StandIns.calls(notifications).last?.contains { $0.hasPrefix("--action") } == false)
        #expect(StandIns.lines(opened).count == 2, "the German click opened it again; --no-wait offers nothing")

        let failingOpener = try fixture.notify(
            fixture.payload(), [],
            environment: environment.merging([NotificationPresenter.openCommandVariable: "false"]) { $1 })
        #expect(failingOpener.status == 1)
        #expect(failingOpener.stderr.contains("false failed"), "\(failingOpener.stderr)")
    }

    @Test("a placeholder and a message that is gone open the server's thread list, never a message")
    func placeholderOpensThreadList() async throws {
        let fixture = try await PushFixture()
        defer { fixture.close() }
        let notifications = fixture.sandbox.home.file("notifications")
        let opened = fixture.sandbox.home.file("opened")
        let environment = [
            NotificationPresenter.commandVariable: try StandIns.notifier(fixture, record: notifications, click: true),
            NotificationPresenter.openCommandVariable: try StandIns.opener(fixture, record: opened),
        ]
        #expect(try fixture.notify(fixture.payload(message: "m-gone"), [], environment: environment).status == 0)
        try await fixture.setMode(.none)
        #expect(try fixture.notify(fixture.payload(), [], environment: environment).status == 0)
        let calls = StandIns.calls(notifications)
        #expect(calls.count == 2)
        for call in calls { #expect(call.contains { $0.hasPrefix("--action=default=") }, "\(call)") }
        #expect(StandIns.lines(opened) == Array(repeating: fixture.origin + "/web/threads", count: 2))
    }

    @Test("interruption-level sets the urgency and sound the sound hint; passive is low and silent")
    func urgencyAndSound() async throws {
        let fixture = try await PushFixture()
        defer { fixture.close() }
        let cases: [(level: String?, sound: String?, urgency: String, sounds: Bool)] = [
            ("passive", "default", "low", false), ("active", "default", "normal", true),
            ("time-sensitive", "default", "critical", true), ("critical", nil, "critical", false),
            (nil, "default", "normal", true), ("loud", "chime.caf", "normal", true),
        ]
        let record = fixture.sandbox.home.file("notifications")
        let notify = try StandIns.notifier(fixture, record: record, click: false)
        for expected in cases {
            var aps = try #require(fixture.payload()["aps"] as? [String: Any])
            aps["interruption-level"] = expected.level
            aps["sound"] = expected.sound
            let payload = fixture.payload(extra: ["aps": aps])

            let json = PushFixture.json(try fixture.notify(payload))
            #expect(json["urgency"] as? String == expected.urgency, "\(expected): \(json)")
            #expect((json["sound"] as? String != nil) == expected.sounds, "\(expected): \(json)")

            let shown = try fixture.notify(
                payload, ["--no-wait"], environment: [NotificationPresenter.commandVariable: notify])
            #expect(shown.status == 0, "\(shown.stderr)")
            let arguments = try #require(StandIns.calls(record).last)
            #expect(arguments.contains("--urgency=\(expected.urgency)"), "\(expected): \(arguments)")
            let hint =
                expected.sounds ? "--hint=string:sound-name:message-new-instant" : "--hint=boolean:suppress-sound:true"
            #expect(arguments.contains(hint), "\(expected): \(arguments)")
        }
    }

    @Test(
        "hostile preview links are refused: another origin or scheme, smuggled characters; the server's own absolute link is taken"
    )
    func hostileLinks() async throws {
        let fixture = try await PushFixture()
        defer { fixture.close() }
        let refused: [Any] = [
            "https://evil.example/web/messages/m1", "//evil.example/web/messages/m1", "/\\evil.example/x",
            "javascript:alert(1)", "file:///etc/passwd", "web/messages/m1", "/web/messages/m 1",
            "/web/messages/m\"1", "/web/messages/m\u{1b}[31m", "/web/messages/\u{202e}m1", "/web/%zz",
            "/" + String(repeating: "a", count: 2048), 42, ["/web/messages/m1"], "",
        ]
        let notifications = fixture.sandbox.home.file("notifications")
        let environment = [
            NotificationPresenter.commandVariable: try StandIns.notifier(fixture, record: notifications, click: true),
            NotificationPresenter.openCommandVariable: try StandIns.opener(
                fixture, record: fixture.sandbox.home.file("opened")),
        ]
        for webURL in refused {
            let server = try FixedAnswerServer(status: 200, body: try Self.preview(webURL: webURL))
            defer { server.stop() }
            try fixture.pointRegistration(at: server.origin)
            let json = PushFixture.json(try fixture.notify(fixture.payload()))
            #expect(json["outcome"] as? String == "preview", "\(webURL): \(json)")
            #expect(json["link"] is NSNull, "\(webURL) became \(json["link"] ?? "nothing")")
            #expect(try fixture.notify(fixture.payload(), [], environment: environment).status == 0)
            #expect(StandIns.calls(notifications).last?.contains { $0.hasPrefix("--action") } == false, "\(webURL)")
        }
        #expect(StandIns.lines(fixture.sandbox.home.file("opened")).isEmpty, "nothing was opened")

        // An absolute link on the origin the preview came from is the server's own.
        let own = try FixedAnswerServer(status: 200) { try Self.preview(webURL: $0 + "/web/messages/m1?at=2#m1") }
        defer { own.stop() }
        try fixture.pointRegistration(at: own.origin)
        let json = PushFixture.json(try fixture.notify(fixture.payload()))
        #expect(json["link"] as? String == own.origin + "/web/messages/m1?at=2#m1", "\(json)")
    }

    @Test("hostile payload numbers and strings: a badge out of range, an overlong or escaping thread-id")
    func hostilePayloadValues() async throws {
        let fixture = try await PushFixture()
        defer { fixture.close() }
        for badge in [1_000_000_000_000, -1, 100_000] as [Int] {
            var aps = try #require(fixture.payload()["aps"] as? [String: Any])
            aps["badge"] = badge
            let json = PushFixture.json(try fixture.notify(fixture.payload(extra: ["aps": aps])))
            #expect(json["badge"] is NSNull, "badge \(badge): \(json)")
        }
        var aps = try #require(fixture.payload()["aps"] as? [String: Any])
        aps["thread-id"] = String(repeating: "t", count: 257)
        #expect(
            PushFixture.json(try fixture.notify(fixture.payload(extra: ["aps": aps])))["thread_id"] as? String == "t-1")

        aps["thread-id"] = "t-1\u{1b}]0;owned\u{07}"
        aps["interruption-level"] = 5
        aps["sound"] = ["critical": 1, "name": "siren", "volume": 9.5]
        let record = fixture.sandbox.home.file("notifications")
        let notify = try StandIns.notifier(fixture, record: record, click: false)
        let shown = try fixture.notify(
            fixture.payload(extra: ["aps": aps]), [], environment: [NotificationPresenter.commandVariable: notify])
        #expect(shown.status == 0, "\(shown.stderr)")
        let arguments = try #require(StandIns.calls(record).last)
        #expect(!arguments.joined().contains("\u{1b}") && !arguments.joined().contains("\u{07}"), "\(arguments)")
        #expect(arguments.contains("--urgency=normal"))
        #expect(arguments.contains("--hint=string:sound-name:message-new-instant"))
    }

    @Test("the daemon: a click on a push's notification opens the message's web link, the feed goes on meanwhile")
    func daemonClick() async throws {
        let fixture = try await PushFixture()
        defer { fixture.close() }
        let opened = fixture.sandbox.home.file("opened")
        let daemon = try PushDaemon(
            fixture,
            environment: [
                NotificationPresenter.commandVariable: try StandIns.notifier(
                    fixture, record: fixture.sandbox.home.file("notifications"), click: true),
                NotificationPresenter.openCommandVariable: try StandIns.opener(fixture, record: opened),
            ])
        defer { daemon.stop() }
        let (status, _) = try await fixture.call(.post, "/api/v1/push/test", json: ["message_id": fixture.messageID])
        #expect(status == 202)
        let clicked = daemon.wait { $0.contains("was clicked: opened the message's web link") }
        #expect(clicked != nil)
        #expect(StandIns.lines(opened) == [fixture.origin + "/web/messages/" + fixture.messageID])
    }

    /// A preview answer with this `web_url`.
    static func preview(webURL: Any) throws -> String {
        let object: [String: Any] = [
            "mode": "full", "sender_name": "sam", "thread_title": NSNull(), "channel_name": "Ideas", "excerpt": "hi",
            "web_url": webURL,
        ]
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }
}
