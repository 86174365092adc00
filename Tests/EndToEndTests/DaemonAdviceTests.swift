import Foundation
import ShareKitClientTestSupport
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// What `share send` says when it keeps a share for share-daemon and no
/// daemon is running, and what it says when one is.
@Suite("share send, kept for a daemon that is not running")
struct DaemonAdviceTests {
    static let advice =
        "share-daemon is not running: start it with `share-daemon &` or `systemctl --user start share-daemon`"

    @Test("--queue without a daemon: says it is not running and how to start it; exit 0 as before")
    func queueWithoutDaemon() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let result = try fixture.share(["send", "--text", "later", "--to", "thread:t1", "--queue"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(Self.advice), "\(result.stdout)")
        #expect(!result.stdout.contains("share-daemon will send it"), "\(result.stdout)")
        let json = try fixture.share(["send", "--text", "later", "--to", "thread:t1", "--queue", "--json"])
        #expect(ShareCLIFixture.json(json)["daemon_running"] as? Bool == false)
    }

    @Test("not sent now (server gone) without a daemon: the advice, exit 3 kept")
    func keptWithoutDaemon() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        _ = fixture.sandbox.stopServer()
        let result = try fixture.share(["send", "--text", "later", "--to", "thread:t1"])
        #expect(result.status == 3, "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("not sent now: "), "\(result.stdout)")
        #expect(result.stdout.contains(Self.advice), "\(result.stdout)")
    }

    @Test("--queue with a running daemon: share-daemon will send it, no advice")
    func queueWithDaemon() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let daemon = try fixture.startDaemon(["--interval", "3600"])
        defer {
            daemon.kill(SIGTERM)
            _ = daemon.finish()
        }
        #expect(daemon.waitForLine { $0.contains("share-daemon: ready") } != nil)
        let result = try fixture.share(["send", "--text", "later", "--to", "thread:t1", "--queue"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("share-daemon will send it to"), "\(result.stdout)")
        #expect(!result.stdout.contains("not running"), "\(result.stdout)")
    }
}
