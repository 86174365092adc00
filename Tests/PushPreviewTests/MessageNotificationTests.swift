import Foundation
import Glibc
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitCore
import ShareKitHTTPInterface
import ShareKitHTTPTypes
import ShareKitKeychainInterface
import ShareKitPushPreview
import ShareKitPushPreviewInterface
import ShareKitSQLInterface
import ShareKitSQLiteStore
import ShareKitSessions
import ShareKitSessionsInterface
import ShareKitSharedStateInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// Notifications of real messages, end to end: Sam writes in Alex's
/// threads on a real `share-server`, the server pushes through Alex's
/// event feed, Alex's `share-daemon` renders each push and shows it with
/// the real `notify-send` on a private session bus, whose
/// `org.freedesktop.Notifications` is a test double that records every call
/// (Tests/Fixtures/NotificationServer).
@Suite("notifications of real messages", .serialized)
struct MessageNotificationTests {
    @Test(
        "sam writes -> alex's daemon shows it (full, names, none); own messages stay quiet; a thread is one notification; a click opens the web link"
    )
    func messagesNotify() async throws {
        let fixture = try await PushFixture()
        defer { fixture.close() }
        let bus = try NotificationBus(fixture)
        defer { bus.stop() }
        let sam = try await Person(fixture, "sam", password: PushFixture.samPassword)
        let alexLaptop = try await Person(fixture, "alex", password: "alex-demo-pass")
        let opened = fixture.sandbox.home.file("opened")
        let opener = try StandIns.opener(fixture, record: opened)
        let daemon = try PushDaemon(
            fixture, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "SHAREKIT_OPEN_COMMAND": opener])
        defer { daemon.stopGracefully() }

        // Full (the default): Sam's name, the thread and the excerpt. The
        // first one also waits for the daemon to start following the feed.
        _ = try await sam.post("t-1", "Deploy window moves to Thursday")
        let first = try #require(bus.wait(count: 1, limit: .seconds(60)).last)
        #expect(first.summary == "sam · \(PushFixture.threadTitle)", "\(first)")
        #expect(first.body == "\(PushFixture.channelName): Deploy window moves to Thursday")
        #expect(first.replacesID == 0)
        #expect(first.actions == ["default", "Open"])

        // With the daemon following the feed: within 2 s of the write.
        let start = ContinuousClock.now
        _ = try await sam.post("t-2", "the second one")
        let timed = try #require(bus.wait(count: 2).last)
        let took = ContinuousClock.now - start
        #expect(took < .seconds(2), "the notification took \(took)")
        print("message notification: shown \(took) after the message was written")
        #expect(timed.body.hasSuffix("the second one"))

        // Alex's own message, from another device, notifies nobody here; the
        // feed is ordered, so Sam's next message shows right after it.
        _ = try await alexLaptop.post("t-3", "alex writes from the laptop")
        _ = try await sam.post("t-3", "sam answers")
        let answer = try #require(bus.wait(count: 3).last)
        #expect(answer.body.hasSuffix("sam answers"), "\(answer)")
        #expect(!bus.notifications().contains { $0.body.contains("laptop") }, "alex's own message notified alex")

        // Three messages in one thread: one notification, replaced twice.
        var last = ""
        for text in ["one", "two", "three"] { last = try await sam.post("t-4", "grouped \(text)") }
        let grouped = Array(bus.wait(count: 6).suffix(3))
        #expect(grouped.map(\.thread) == ["t-4", "t-4", "t-4"])
        #expect(grouped[0].replacesID == 0)
        #expect(grouped[1].replacesID == grouped[0].id && grouped[2].replacesID == grouped[0].id, "\(grouped)")
        #expect(Set(grouped.map(\.id)).count == 1, "one notification on the desktop for the thread")
        #expect(grouped[2].body.hasSuffix("grouped three"))

        // A click on it runs the opener once, with the newest message's web link.
        try bus.click(grouped[0].id)
        #expect(
            StandIns.wait(for: opened) == [fixture.origin + "/web/messages/\(last)"],
            "the opener ran with \(StandIns.lines(opened))")

        // That link, opened in a real headless Chromium after the login, shows the message.
        let browsed = try Browser.open(
            try #require(StandIns.lines(opened).first), user: "alex", password: "alex-demo-pass")
        #expect(browsed["url"] as? String == fixture.origin + "/web/threads/t-4#\(last)", "\(browsed)")
        let target = try #require(browsed["target"] as? [String: Any], "\(browsed)")
        #expect(target["text"] as? String == "grouped three")
        #expect(target["sender"] as? String == "sam")
        #expect(target["in_view"] as? Bool == true && target["highlighted"] as? Bool == true)

        // names: no excerpt; none: the placeholder.
        try await fixture.setMode(.names)
        _ = try await sam.post("t-5", "hidden by names")
        let names = try #require(bus.wait(count: 7).last)
        #expect(names.summary == "sam · Fifth thread", "\(names)")
        #expect(names.body == "New message in \(PushFixture.channelName)")
        try await fixture.setMode(.none)
        _ = try await sam.post("t-6", "hidden by none")
        let none = try #require(bus.wait(count: 8).last)
        #expect(none.summary == "New notification" && none.body == "New message", "\(none)")
        #expect(none.thread == "t-6")
        #expect(!bus.notifications().contains { $0.body.contains("hidden") || $0.summary.contains("hidden") })
    }

    @Test(
        "through the daemon: a message gone is \"Message not available\", a late preview the placeholder; --no-notifications shows nothing"
    )
    func notAvailableDeadlineAndQuiet() async throws {
        let fixture = try await PushFixture()
        defer { fixture.close() }
        let bus = try NotificationBus(fixture)
        defer { bus.stop() }
        let sam = try await Person(fixture, "sam", password: PushFixture.samPassword)

        // Quiet by choice: the push arrives and is not shown.
        let quiet = try PushDaemon(
            fixture, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address], arguments: ["--no-notifications"])
        _ = try await sam.post("t-1", "nobody is told")
        #expect(quiet.wait { $0.contains("a push was not shown: notifications are off") } != nil)
        quiet.stopGracefully()
        #expect(bus.notifications().isEmpty)

        // Alex can no longer read the side channel: its message is 404 for the preview.
        _ = try await sam.post(PushFixture.sideThread, "then the channel was closed")
        let database = try SQLiteDatabase(path: fixture.sandbox.server.databasePath)
        try database.execute(
            "UPDATE channel_access SET can_read = 0 WHERE channel_id = ? AND username = ?",
            [.text("c-side"), .text("alex")])
        // The next daemon goes on from the quiet one's cursor: the side push is shown now.
        let shown = try PushDaemon(fixture, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        let gone = try #require(bus.wait(count: 1).last)
        shown.stopGracefully()
        #expect(gone.thread == PushFixture.sideThread)
        #expect(gone.summary == "New notification" && gone.body == "Message not available", "\(gone)")
        #expect(gone.actions == ["default", "Open"], "a click opens the thread list")

        // A preview that cannot come in time leaves the placeholder.
        try fixture.state.set("1", for: .pushFetchTimeout)
        _ = try await sam.post("t-2", "too late to preview")
        let late = try PushDaemon(fixture, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        defer { late.stopGracefully() }
        #expect(late.wait { $0.contains("rendered notification") && $0.contains("placeholder: deadline") } != nil)
        let placeholder = try #require(bus.wait(count: 2).last)
        #expect(placeholder.thread == "t-2")
        #expect(placeholder.summary == "New notification" && placeholder.body == "New message", "\(placeholder)")
    }
}

/// A private session bus (`dbus-daemon`) with the notification server
/// double on it, and what the double recorded.
final class NotificationBus: @unchecked Sendable {
    /// One `Notify` call as the double recorded it.
    struct Notification: CustomStringConvertible {
        let id: UInt32
        let replacesID: UInt32
        let summary: String
        let body: String
        let actions: [String]
        /// The `x-sharekit-thread` hint.
        let thread: String?

        var description: String { "#\(id) (replaces \(replacesID)) [\(thread ?? "-")] \(summary) | \(body)" }
    }

    /// The bus address, for `DBUS_SESSION_BUS_ADDRESS`.
    let address: String
    private let bus: HelperProcess
    private let double: HelperProcess
    private let record: String

    /// The double's program, in the repository.
    static let doublePath =
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/NotificationServer/notification-server-double.py").path

    init(_ fixture: PushFixture) throws {
        record = fixture.sandbox.home.file("notifications.jsonl")
        bus = try HelperProcess(
            executable: "/usr/bin/dbus-daemon", ["--session", "--nofork", "--nopidfile", "--print-address=1"])
        guard let address = bus.readLine(until: .now + .seconds(30)), address.hasPrefix("unix:") else {
            bus.kill(SIGKILL)
            _ = bus.finish()
            throw FixtureError("dbus-daemon printed no address")
        }
        self.address = address
        // Debian's python3: python3-dbus and python3-gi are installed for it.
        do {
            double = try HelperProcess(
                executable: "/usr/bin/python3", [Self.doublePath, "--address", address, "--record", record],
                mergeErrors: true)
        } catch {
            bus.kill(SIGKILL)
            _ = bus.finish()
            throw error
        }
        guard double.waitForLine(limit: .seconds(30), where: { $0 == "ready" }) != nil else {
            stop()
            throw FixtureError("the notification server double did not start")
        }
    }

    /// Every `Notify` call so far, in order.
    func notifications() -> [Notification] {
        StandIns.lines(record).compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["call"] as? String == "Notify"
            else { return nil }
            return Notification(
                id: UInt32(object["id"] as? Int ?? 0), replacesID: UInt32(object["replaces_id"] as? Int ?? 0),
                summary: object["summary"] as? String ?? "", body: object["body"] as? String ?? "",
                actions: object["actions"] as? [String] ?? [],
                thread: (object["hints"] as? [String: Any])?["x-sharekit-thread"] as? String)
        }
    }

    /// The `Notify` calls once there are at least `count` (polled until `limit`).
    func wait(count: Int, limit: Duration = .seconds(20)) -> [Notification] {
        let deadline = ContinuousClock.now + limit
        while true {
            let calls = notifications()
            if calls.count >= count || ContinuousClock.now >= deadline {
                if calls.count < count { Issue.record("\(calls.count) of \(count) notifications: \(calls)") }
                return calls
            }
            usleep(20_000)
        }
    }

    /// Clicks a notification: the double emits `ActionInvoked(id, "default")`.
    func click(_ id: UInt32) throws {
        let sent = try runProcess(
            "/usr/bin/dbus-send",
            [
                "--bus=\(address)", "--print-reply", "--dest=org.freedesktop.Notifications",
                "/org/freedesktop/Notifications", "org.sharekit.TestDouble.Click", "uint32:\(id)",
            ])
        guard sent.status == 0 else { throw FixtureError("dbus-send: \(sent.stderr)") }
    }

    /// Stops the double and the bus (SIGKILL: nothing of theirs needs a graceful end).
    func stop() {
        for process in [double, bus] {
            process.kill(SIGKILL)
            _ = process.finish()
        }
    }
}

/// Another person (or another device of Alex) on the fixture's server: an
/// app group of its own, logged in, writing messages.
struct Person {
    let connection: ServerConnection

    init(_ fixture: PushFixture, _ username: String, password: String) async throws {
        let directory = fixture.sandbox.home.file("person-\(UUID().uuidString)")
        let environment = [
            "SHAREKIT_KEYCHAIN": "file", "SHAREKIT_KEYCHAIN_DIR": directory + "/keychain",
            "SHAREKIT_CONTAINER_DIR": directory + "/container",
        ].merging(TestLocale.english) { $1 }
        connection = try ClientAssembly(environment: environment).connection(to: fixture.origin)
        try await connection.issuer.login(username: username, password: SecretValue(utf8: password))
    }

    /// createMessage in a thread; returns the message id.
    func post(_ thread: String, _ text: String) async throws -> String {
        let token = try await connection.provider(.parent).currentAccessToken()
        var request = HTTPClientRequest(method: .post, url: connection.origin + "/api/v1/threads/\(thread)/messages")
        request.body = .bytes(
            Array(try JSONSerialization.data(withJSONObject: ["client_msg_id": UUIDv7().description, "text": text])))
        request.headers.set("Content-Type", "application/json")
        let response = try await connection.signed.send(request, accessToken: token.plainText)
        guard response.status == 201,
            let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
            let id = (object["message"] as? [String: Any])?["id"] as? String
        else { throw FixtureError("createMessage answered \(response.status)") }
        return id
    }
}

extension StandIns {
    /// The lines of a record once it has some (polled for up to 20 s).
    static func wait(for record: String) -> [String] {
        let deadline = ContinuousClock.now + .seconds(20)
        while lines(record).isEmpty && ContinuousClock.now < deadline { usleep(20_000) }
        return lines(record)
    }
}

/// tools/web-reader/browse.py: a real headless Chromium (through
/// chromedriver) that opens a web link, signs in on the login page it is
/// sent to and reports the page it ends on.
enum Browser {
    static let script =
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("tools/web-reader/browse.py").path

    /// Opens `url`, signs in, and returns the script's JSON report.
    static func open(_ url: String, user: String, password: String) throws -> [String: Any] {
        let result = try runProcess(
            "/usr/bin/python3", [script, "--url", url, "--user", user, "--password-stdin", "--json"],
            stdin: password + "\n")
        guard result.status == 0,
            let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        else { throw FixtureError("browse.py failed (\(result.status)): \(result.stderr)") }
        return report
    }
}
