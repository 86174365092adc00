import ShareKitClientAssembly
import ShareKitCore
import ShareKitDaemonControlInterface
import ShareKitDaemonControlInterfaceTesting
import ShareKitSystemTesting
import Testing

@testable import ShareKitCLIKit

/// What `share status` makes of the daemon's answer, with a daemon faked
/// through the control interface: no socket and no daemon process.
@Suite("share status with a faked daemon")
struct StatusDaemonTests {
    /// A fresh file keychain and container: nobody logged in, nothing kept.
    private static func assembly(_ dir: TemporaryDirectory) throws -> ClientAssembly {
        try ClientAssembly(environment: [
            "SHAREKIT_KEYCHAIN": "file", "SHAREKIT_KEYCHAIN_DIR": dir.file("keychain"),
            "SHAREKIT_CONTAINER_DIR": dir.file("container"), "SHAREKIT_STATE_DIR": dir.file("state"),
        ])
    }

    @Test("a running daemon's report is shown and embedded in --json, its strings neutralised")
    func runningDaemon() throws {
        let dir = try TemporaryDirectory(prefix: "status-daemon")
        defer { dir.remove() }
        let report = DaemonStatusReport(
            pid: 4242, childSession: "ok", lastError: "boom\u{1B}[2J",
            outbox: .init(pending: 2, sending: 1, sent: 5, failed: 0))
        let daemon = FakeDaemonControl(running: report)
        let status = Status.gather(try Self.assembly(dir), daemon: daemon)
        #expect(daemon.requests == [.status])
        let lines = status.text.split(separator: "\n").map(String.init)
        #expect(lines.contains(t(.statusDaemonRunning, ["pid": 4242])))
        #expect(lines.contains(t(.statusDaemonOutbox, ["pending": 2, "sending": 1, "sent": 5, "failed": 0])))
        #expect(!status.text.contains("\u{1B}"))
        guard case .object(let json) = status.json, case .object(let embedded)? = json["daemon"] else {
            Issue.record("no daemon object in \(status.json)")
            return
        }
        #expect(embedded["pid"] == .integer(4242))
        #expect(embedded["child_session"] == .string("ok"))
    }

    @Test("a daemon that is not running is said so, and --json has null")
    func stoppedDaemon() throws {
        let dir = try TemporaryDirectory(prefix: "status-daemon")
        defer { dir.remove() }
        let status = Status.gather(try Self.assembly(dir), daemon: FakeDaemonControl(status: .failure(.notRunning)))
        #expect(status.text.split(separator: "\n").map(String.init).contains(t(.statusDaemonNotRunning)))
        guard case .object(let json) = status.json else { return }
        #expect(json["daemon"] == .null)
    }

    @Test("a daemon whose answer is unreadable is named with the reason")
    func unreadableDaemon() throws {
        let dir = try TemporaryDirectory(prefix: "status-daemon")
        defer { dir.remove() }
        let failure = DaemonControlError.unreadable("`pid` is missing")
        let status = Status.gather(try Self.assembly(dir), daemon: FakeDaemonControl(status: .failure(failure)))
        #expect(status.text.contains(t(.statusDaemonUnreadable, ["error": failure.description])))
    }
}
