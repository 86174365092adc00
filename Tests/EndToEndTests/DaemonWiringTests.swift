import Foundation
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitCore
import ShareKitHTTPInterface
import ShareKitHTTPTypes
import ShareKitSQLInterface
import ShareKitSQLiteStore
import ShareKitSessionsInterface
import ShareKitSharedStateInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// What the daemon does for the other programs, each proved through the
/// real processes: the child session `share send` uses, the preview mode
/// the notifier reads, the recent targets the picker shows.
@Suite("share-daemon wiring, end to end")
struct DaemonWiringTests {
    @Test(
        "the daemon makes the child session itself: none before --once, one of the parent's after, and share send uses it"
    )
    func daemonMakesChildSession() async throws {
        let fixture = try await ShareCLIFixture(childSession: false)
        defer { fixture.close() }
        let storage = fixture.sandbox.connection.storage
        #expect(try storage.read(.child) == nil)
        let parent = try #require(try storage.read(.parent))

        let pass = try fixture.daemon(["--once"])
        #expect(pass.status == 0, "\(pass.stderr)")
        let child = try #require(try storage.read(.child), "the daemon stored no child session")
        #expect(child.sessionID != parent.sessionID)
        let database = try SQLiteDatabase(path: fixture.server.databasePath)
        defer { try? database.close() }
        let rows = try database.query(
            "SELECT parent_id, client_component, revoked_at FROM sessions WHERE id = ?", [.text(child.sessionID)])
        #expect(rows.count == 1)
        #expect(try rows.first?.get("parent_id", as: String?.self) == parent.sessionID)
        #expect(try rows.first?.get("client_component", as: String.self) == "share_ext")
        #expect(try rows.first?.get("revoked_at", as: Int64?.self) == nil)

        let sent = try fixture.share([
            "send", "--text", "with the daemon's child session", "--to", "thread:t1", "--json",
        ])
        #expect(sent.status == 0, "\(sent.stdout) \(sent.stderr)")
        #expect(ShareCLIFixture.json(sent)["status"] as? String == "sent", "\(sent.stdout)")
        #expect(try storage.read(.child)?.sessionID == child.sessionID, "share send used the daemon's child")
    }

    @Test("the daemon writes notify.preview_mode into the shared state at start and again when the setting changes")
    func previewModeAtStartAndOnChange() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let state = fixture.sandbox.assembly.container.state
        #expect(try state.value(for: .previewMode) == nil)
        // Changed before the daemon starts: its feed starts after this
        // change, so only the start can bring the value over.
        #expect(try await fixture.updateSettings(previewMode: "names") == 200)

        let daemon = try fixture.startDaemon(["--interval", "3600", "--verbose"])
        defer {
            daemon.kill(SIGTERM)
            _ = daemon.finish()
        }
        var ready = false
        var written = false
        while !(ready && written), let line = daemon.readLine(until: .now + .seconds(60)) {
            ready = ready || line == "share-daemon: ready"
            written = written || line.contains("settings: notify.preview_mode names written")
        }
        #expect(ready && written, "ready: \(ready), preview_mode written at start: \(written)")
        #expect(try state.value(for: .previewMode) == "names")

        #expect(try await fixture.updateSettings(previewMode: "none") == 200)
        let changed = daemon.waitForLine(limit: .seconds(60)) {
            $0.contains("settings: notify.preview_mode none written")
        }
        #expect(changed != nil, "the settings.changed event did not bring the new mode over")
        #expect(try state.value(for: .previewMode) == "none")
    }

    @Test("the recent targets are written after the daemon's sends: none for a queued share, its target once sent")
    func recentTargetsAfterDaemonSends() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let queued = try fixture.queueShares(1)
        #expect(try fixture.recentTargets().isEmpty, "queueing a share makes no recent target")

        let pass = try fixture.daemon(["--once"])
        #expect(pass.status == 0, "\(pass.stderr)")
        #expect(try await fixture.deliveries() == [queued[0]: 1])
        #expect(try fixture.recentTargets().map(\.id) == ["t1"])
    }
}

extension ShareCLIFixture {
    /// updateSettings with Alex's parent session; returns the status.
    func updateSettings(previewMode: String) async throws -> Int {
        let token = try await sandbox.connection.provider(.parent).currentAccessToken()
        var request = HTTPClientRequest(method: .patch, url: sandbox.origin + "/api/v1/settings")
        request.body = .bytes(Array(#"{"notify":{"preview_mode":"\#(previewMode)"}}"#.utf8))
        request.headers.set("Content-Type", "application/json")
        return try await sandbox.connection.signed.send(request, accessToken: token.plainText).status
    }
}
