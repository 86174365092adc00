import Foundation
import ShareKitClientTestSupport
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// A queued share that share-daemon delivers or refuses later is told to
/// the person: a desktop notification, and the line in `share status`.
@Suite("share-daemon tells when a queued share is delivered or refused")
struct DeliveryNoticeTests {
    /// A notifier that appends its arguments to a log, one per line, and
    /// `share-daemon --once` run with it.
    static func daemonPass(_ fixture: ShareCLIFixture) throws -> (result: ProcessResult, notifications: String) {
        let log = fixture.home.file("notifications.log")
        let command = fixture.home.file("fake-notify")
        try Data("#!/bin/sh\nprintf '%s\\n' \"$@\" >> \(log)\n".utf8).write(to: URL(fileURLWithPath: command))
        chmod(command, 0o700)
        FileManager.default.createFile(atPath: log, contents: nil)
        let result = try runProcess(
            BuiltProducts.path("share-daemon"), ["--once"],
            environment: fixture.sandbox.environment.merging(["SHAREKIT_NOTIFY_COMMAND": command]) { $1 })
        return (result, try String(contentsOfFile: log, encoding: .utf8))
    }

    @Test("delivered: `ShareKit: sent` / `sent to <target>`, and share status names it")
    func delivered() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let id = try #require(try fixture.queueShares(1).first)
        let (pass, notifications) = try Self.daemonPass(fixture)
        #expect(pass.status == 0, "\(pass.stderr)")
        #expect(notifications.contains("ShareKit: sent\nsent to "), "\(notifications)")
        #expect(try await fixture.deliveries() == [id: 1])
        let status = try fixture.share(["status"])
        #expect(status.stdout.contains("share-daemon sent \(id.suffix(6)) to "), "\(status.stdout)")
    }

    @Test("refused: `ShareKit: not sent` / `not sent: <reason>`, and share status names it")
    func refused() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let id = try #require(try fixture.queueShares(1).first)
        #expect(try fixture.server.admin(["revoke-write", "--user", "alex", "--channel", "c1"]).status == 0)
        let (_, notifications) = try Self.daemonPass(fixture)
        #expect(notifications.contains("ShareKit: not sent\nnot sent: "), "\(notifications)")
        let status = try fixture.share(["status"])
        #expect(status.stdout.contains("share-daemon could not send \(id.suffix(6)) to "), "\(status.stdout)")
    }

    @Test("notify-send is used only with a session bus to reach a notification daemon; without one, nothing is run")
    func onlyWithANotificationService() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let bin = fixture.home.file("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let log = fixture.home.file("notify-send.log")
        try Data("#!/bin/sh\nprintf '%s\\n' \"$@\" >> \(log)\n".utf8).write(
            to: URL(fileURLWithPath: bin + "/notify-send"))
        chmod(bin + "/notify-send", 0o700)
        var environment = fixture.sandbox.environment
        environment["PATH"] = bin + ":/usr/bin:/bin"
        _ = try fixture.queueShares(1)
        let noBus = try runProcess(BuiltProducts.path("share-daemon"), ["--once"], environment: environment)
        #expect(noBus.status == 0, "\(noBus.stderr)")
        #expect(!FileManager.default.fileExists(atPath: log), "notify-send ran without a session bus")
        _ = try fixture.queueShares(1)
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/bus"
        let withBus = try runProcess(BuiltProducts.path("share-daemon"), ["--once"], environment: environment)
        #expect(withBus.status == 0, "\(withBus.stderr)")
        let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(said.contains("ShareKit: sent"), "\(said)")
    }
}
