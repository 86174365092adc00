import Dispatch
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
import ShareKitSharedState
import ShareKitSharedStateInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// The daemon's push service against share-server: registration after
/// login, a test push from the event feed rendered by the notifier, the
/// counters reported to /client-metrics, and unregistration at logout.
@Suite("share-daemon push service", .serialized)
struct DaemonPushTests {
    @Test("POST /push/test -> the daemon renders it, shows it and reports the counters; logout unregisters")
    func daemonPath() async throws {
        let fixture = try await PushFixture()
        defer { fixture.close() }
        // The fixture registered by hand; the daemon registers on its own.
        try fixture.registrations.delete(instance: fixture.instance)
        let record = fixture.sandbox.home.file("notify-send.args")
        let script = try notifyScript(fixture, record: record)
        // Replay the feed from its start, so the push is seen whenever the first poll happens.
        let daemonDirectory = fixture.sandbox.assembly.container.rootPath + "/daemon"
        try FileManager.default.createDirectory(
            atPath: daemonDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try "0".write(toFile: daemonDirectory + "/events.cursor", atomically: true, encoding: .utf8)

        let daemon = try HelperProcess(
            executable: BuiltProducts.path("share-daemon"), ["--interval", "0.2", "--verbose"],
            environment: fixture.sandbox.environment.merging(["SHAREKIT_NOTIFY_COMMAND": script, "LANG": "C.UTF-8"]) {
                $1
            }, mergeErrors: true)
        // A daemon that never logs what the test waits for would block its
        // reads forever: after a generous bound it is killed, the reads end.
        // (A dispatch timer, not a task: the test's reads block a thread of the cooperative pool.)
        let watchdog = DispatchWorkItem { daemon.kill(SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 30, execute: watchdog)
        let log = DaemonLines(daemon)
        // SIGKILL: a graceful stop waits for the feed's long poll (the
        // EndToEndTests cover SIGTERM), and this test needs only the push path.
        var stopped = false
        func stopDaemon() {
            guard !stopped else { return }
            stopped = true
            watchdog.cancel()
            daemon.kill(SIGKILL)
            _ = daemon.finish()
        }
        defer { stopDaemon() }
        let registered = log.wait { $0.contains("push: registered for push") }
        #expect(registered != nil)
        let registration = try #require(try fixture.registrations.registration(instance: fixture.instance))
        #expect(registration.origin == fixture.origin)
        #expect(try fixture.state.value(for: .pushFetchTimeout) != nil, "the daemon wrote client.push.fetch_timeout")

        let (status, _) = try await fixture.call(.post, "/api/v1/push/test", json: ["message_id": fixture.messageID])
        #expect(status == 202)
        let rendered = log.wait { $0.contains("push: rendered notification") }
        #expect(rendered?.contains("(preview)") == true, "\(rendered ?? "no line")")
        #expect(rendered?.contains(PushFixture.excerpt) == false, "the log holds no content")
        // The notification is shown beside the feed, so its end (logged once
        // the stand-in is done) and the counters' report come in either order.
        var reported: String?
        var closed = false
        while reported == nil || !closed,
            let line = log.wait({ $0.contains("push: reported") || $0.contains("closed without a click") })
        {
            if line.contains("push: reported") { reported = line } else { closed = true }
        }
        #expect(reported?.contains("1 notification(s), 0 placeholder(s)") == true, "\(reported ?? "no line")")
        let shown = try String(contentsOfFile: record, encoding: .utf8)
        #expect(shown.contains("\(PushFixture.channelName): \(PushFixture.excerpt)"))
        #expect(shown.contains("--hint=string:x-sharekit-thread:t-1"))
        #expect(try fixture.state.integer(for: .displayCount) ?? 0 == 0, "the daemon took the counters")

        let database = try SQLiteDatabase(path: fixture.sandbox.server.databasePath)
        let metrics = try database.query("SELECT name, value, unit FROM client_metrics WHERE username = 'alex'", [])
        let names = try metrics.map { try $0.get("name", as: String.self) }.sorted()
        #expect(names == ["client.push.placeholder", "client.push_display.duration"])
        for row in metrics where try row.get("name", as: String.self) == "client.push.placeholder" {
            #expect(try row.get("value", as: Double.self) == 0)
        }

        // Logout: the registration goes at the server and in the keychain.
        stopDaemon()
        let logout = try runProcess(BuiltProducts.path("share"), ["logout"], environment: fixture.sandbox.environment)
        #expect(logout.status == 0, "\(logout.stdout) \(logout.stderr)")
        #expect(logout.stdout.contains("removed the push registration"), "\(logout.stdout)")
        #expect(try fixture.registrations.registration(instance: fixture.instance) == nil)
        let left = try database.query(
            "SELECT id FROM push_registrations WHERE id = ?", [.text(registration.registrationID)])
        #expect(left.isEmpty)
    }

    @Test("a new push token registers again and removes the old registration; the same token does not")
    func newTokenRegistersAgain() async throws {
        let fixture = try await PushFixture()
        defer { fixture.close() }
        let old = try #require(try fixture.registrations.registration(instance: fixture.instance))
        let once = try runProcess(
            BuiltProducts.path("share-daemon"), ["--once"],
            environment: fixture.sandbox.environment.merging(["SHAREKIT_PUSH_TOKEN": "device-token-2"]) { $1 })
        #expect(once.status == 0, "\(once.stderr)")
        #expect(once.stderr.contains("registered again for a new push token"), "\(once.stderr)")
        let new = try #require(try fixture.registrations.registration(instance: fixture.instance))
        #expect(new.registrationID != old.registrationID)
        #expect(new.pushToken == "device-token-2")
        #expect(PushFixture.json(try fixture.notify(fixture.payload()))["outcome"] as? String == "preview")

        let database = try SQLiteDatabase(path: fixture.sandbox.server.databasePath)
        #expect(
            try database.query("SELECT id FROM push_registrations WHERE id = ?", [.text(old.registrationID)]).isEmpty)

        let unchanged = try runProcess(
            BuiltProducts.path("share-daemon"), ["--once"],
            environment: fixture.sandbox.environment.merging(["SHAREKIT_PUSH_TOKEN": "device-token-2"]) { $1 })
        #expect(!unchanged.stderr.contains("registered"), "the same token does not register again")
    }
}

/// The daemon's log lines as read so far, for failure messages.
final class DaemonLines: @unchecked Sendable {
    private let daemon: HelperProcess
    private(set) var lines: [String] = []

    init(_ daemon: HelperProcess) { self.daemon = daemon }

    /// Reads lines until one matches; nil at the end of the output.
    func wait(_ predicate: (String) -> Bool) -> String? {
        while let line = daemon.readLine() {
            lines.append(line)
            if predicate(line) { return line }
        }
        Issue.record("the daemon log ended without the line; it said:\n\(lines.joined(separator: "\n"))")
        return nil
    }
}
