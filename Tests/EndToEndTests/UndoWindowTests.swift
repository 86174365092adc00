import Foundation
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitInboxInterface
import ShareKitSharedStateInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// Ctrl-C on a `share send` in a terminal ("wrong file"): the share is kept,
/// so nothing is lost, but share-daemon waits the undo window before it may
/// send it, and `share inbox drop ID` takes it back meanwhile. The window is
/// written into the inbox entry, so the daemon, another process, honours it.
@Suite("share send: Ctrl-C, the undo window and share inbox drop")
struct UndoWindowTests {
    /// `share send FILE --to thread:t1 ARGUMENTS` on a pseudo-terminal,
    /// interrupted with SIGINT while the file is uploading (64 KiB parts,
    /// so a 16 MiB file takes many requests).
    /// - Returns: what the terminal showed and the exit status.
    static func interruptedSend(_ fixture: ShareCLIFixture, _ arguments: [String]) throws -> (
        screen: String, status: Int32
    ) {
        let path = try fixture.sandbox.writeFile("big.bin", size: 16 * 1024 * 1024)
        let terminal = try PseudoTerminalProcess(
            BuiltProducts.path("share"), ["send", path, "--to", "thread:t1", "--verbose"] + arguments,
            environment: fixture.sandbox.environment, columns: 200)
        #expect(terminal.waitForScreen(timeout: 60) { $0.contains("uploading big.bin") } != nil, "\(terminal.screen)")
        kill(terminal.pid, SIGINT)
        let status = terminal.waitForExit()
        return (PseudoTerminalProcess.stripEscapes(terminal.raw), status)
    }

    /// The short id the interruption message offers to `share inbox drop`.
    static func dropID(in screen: String) -> String? {
        guard let range = screen.range(of: #"share inbox drop [0-9a-f-]+"#, options: .regularExpression) else {
            return nil
        }
        return String(screen[range].dropFirst("share inbox drop ".count))
    }

    @Test("Ctrl-C in a terminal: nothing is sent within the undo window, and share inbox drop takes the share back")
    func undoWithinTheWindow() async throws {
        let fixture = try await ShareCLIFixture(seed: SendInterruptTests.slowUploadSeed)
        defer { fixture.close() }
        let (screen, status) = try Self.interruptedSend(fixture, [])
        #expect(status == 130, "\(screen)")
        #expect(screen.contains("30 s"), "the message names the window: \(screen)")
        let short = try #require(Self.dropID(in: screen), "no way to take it back was offered: \(screen)")
        let entry = try #require(try fixture.scanInbox().entries.first)
        #expect(short.count >= 6 && short.count < entry.id.count && entry.id.hasSuffix(short), "\(short)")

        // A running daemon sees the entry and leaves it alone while the window lasts.
        let daemon = try fixture.startDaemon()
        defer {
            daemon.kill(SIGTERM)
            _ = daemon.finish()
        }
        #expect(daemon.waitForLine { $0.contains("\(entry.id) waits for its undo window") } != nil)
        // Another share queued now is sent at once: the daemon works, it only
        // leaves the interrupted one alone.
        let other = try fixture.share(["send", "--text", "meanwhile", "--to", "thread:t1", "--queue", "--json"])
        let otherID = try #require(ShareCLIFixture.json(other)["client_msg_id"] as? String)
        #expect(daemon.waitForLine { $0.contains("sent \(otherID)") } != nil)
        #expect(try await fixture.deliveries()[entry.id] == nil)
        #expect(try fixture.scanInbox().entries.map(\.id) == [entry.id])

        let drop = try fixture.share(["inbox", "drop", short])
        #expect(drop.status == 0, "\(drop.stdout) \(drop.stderr)")
        #expect(drop.stdout.contains("dropped"), "\(drop.stdout)")
        #expect(try fixture.scanInbox().entries.isEmpty)
        #expect(try await fixture.deliveries()[entry.id] == nil)
    }

    @Test("Ctrl-C in a terminal with --undo-window 0: the running daemon sends the share at once")
    func noWindow() async throws {
        let fixture = try await ShareCLIFixture(seed: SendInterruptTests.slowUploadSeed)
        defer { fixture.close() }
        let daemon = try fixture.startDaemon(["--interval", "600", "--verbose"])
        defer {
            daemon.kill(SIGTERM)
            _ = daemon.finish()
        }
        #expect(daemon.waitForLine { $0.contains("share-daemon: ready") } != nil)
        let (screen, status) = try Self.interruptedSend(fixture, ["--undo-window", "0"])
        #expect(status == 130, "\(screen)")
        #expect(!screen.contains("undo"), "no window was offered: \(screen)")
        // The interruption wakes the daemon (its own timer is ten minutes away).
        #expect(daemon.waitForLine { $0.contains("outbox: sent ") } != nil)
        #expect(try await fixture.deliveries().values.reduce(0, +) == 1)
    }

    @Test("a short undo window ends by itself: the running daemon sends the share when it is over")
    func windowEnds() async throws {
        let fixture = try await ShareCLIFixture(seed: SendInterruptTests.slowUploadSeed)
        defer { fixture.close() }
        // The daemon's own timer is ten minutes away: only the window's end can wake it.
        let daemon = try fixture.startDaemon(["--interval", "600", "--verbose"])
        defer {
            daemon.kill(SIGTERM)
            _ = daemon.finish()
        }
        #expect(daemon.waitForLine { $0.contains("share-daemon: ready") } != nil)
        let (screen, status) = try Self.interruptedSend(fixture, ["--undo-window", "1"])
        #expect(status == 130, "\(screen)")
        #expect(daemon.waitForLine { $0.contains("waits for its undo window") } != nil)
        #expect(daemon.waitForLine(limit: .seconds(30)) { $0.contains("outbox: sent ") } != nil)
        #expect(try await fixture.deliveries().values.reduce(0, +) == 1)
    }

    @Test("--undo-window is range-checked: a negative or huge window is a usage error, nothing is kept")
    func windowRange() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        for value in ["-1", "3601", "soon"] {
            let result = try fixture.share(["send", "--text", "x", "--to", "thread:t1", "--undo-window", value])
            #expect(result.status == 2, "\(value): \(result.stderr)")
            #expect(result.stderr.contains("--undo-window"), "\(result.stderr)")
        }
        #expect(try fixture.scanInbox().entries.isEmpty)
    }

    @Test("a not_before far ahead written into a manifest does not hold a share back: the daemon sends it")
    func hostileNotBefore() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let queued = try fixture.share(["send", "--text", "held?", "--to", "thread:t1", "--queue", "--json"])
        let id = try #require(ShareCLIFixture.json(queued)["client_msg_id"] as? String)
        let manifest = fixture.sandbox.assembly.container.inboxPath + "/\(id)/manifest.json"
        var text = try String(contentsOfFile: manifest, encoding: .utf8)
        text.replaceSubrange(
            try #require(text.range(of: "{")), with: #"{"not_before":"9999-12-31T23:59:59Z","#)
        try text.write(toFile: manifest, atomically: true, encoding: .utf8)
        #expect(chmod(manifest, 0o600) == 0)
        let pass = try fixture.daemon(["--once", "--verbose"])
        #expect(pass.status == 0, "\(pass.stderr)")
        #expect(pass.stderr.contains("not_before"), "the log says why the window was not honoured: \(pass.stderr)")
        #expect(try await fixture.deliveries()[id] == 1)
    }
}
