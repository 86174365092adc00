import Foundation
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitInboxInterface
import ShareKitSharedState
import ShareKitSharedStateInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// `share send` interrupted: SIGKILL at random points, Ctrl-C with each
/// `--on-cancel` policy, and what `share inbox` then shows and does.
@Suite("share send interrupted, and share inbox")
struct SendInterruptTests {
    /// A seed with small parts, so an upload of a few MiB takes many requests.
    static var slowUploadSeed: [String: Any] {
        var seed = DemoLikeSeed.value
        seed["limits"] = [
            "file_max_upload_bytes": 256 * 1024 * 1024, "message_max_attachments": 4, "upload_part_size": 65_536,
        ]
        seed["accepted_content_types"] = ["text/plain", "application/octet-stream", "image/png"]
        return seed
    }

    @Test("SIGKILL at random points of a send: a delivered message or an inbox entry, never a half-written one")
    func killedSendsLoseNothing() async throws {
        let fixture = try await ShareCLIFixture(seed: Self.slowUploadSeed)
        defer { fixture.close() }
        let path = try fixture.sandbox.writeFile("data.bin", size: 2 * 1024 * 1024)
        var generator = SystemRandomNumberGenerator()
        // The steps --verbose names, in order; each round kills after a random one.
        let steps = ["written to the share inbox", "uploading", "uploaded as", "creating the message"]
        var started = 0
        for round in 0..<8 {
            let process = try fixture.start([
                "send", path, "--comment", "round \(round)", "--to", "thread:t1", "--verbose", "--progress", "off",
            ])
            started += 1
            let wanted = steps[Int.random(in: 0..<steps.count, using: &generator)]
            _ = process.waitForLine { $0.contains(wanted) || $0.hasPrefix("sent to") }
            process.kill(SIGKILL)
            _ = process.finish()
            let scan = try fixture.scanInbox()
            #expect(scan.quarantined.isEmpty, "round \(round): \(scan.quarantined)")
            #expect(scan.entries.allSatisfy { !$0.isLocked }, "a killed sender's lock outlived it")
        }
        // Everything kept is sent by the daemon; each share arrives once.
        let pass = try fixture.daemon(["--once"])
        #expect(pass.status == 0, "\(pass.stderr)")
        let counts = try await fixture.deliveries()
        #expect(counts.values.allSatisfy { $0 == 1 }, "\(counts)")
        #expect(counts.count == started, "every started share arrived: \(counts.count) of \(started)")
        #expect(try fixture.scanInbox().entries.isEmpty)
    }

    @Test("Ctrl-C during an upload with --on-cancel keep: exit 130, the share waits in the inbox")
    func interruptKeeps() async throws {
        let fixture = try await ShareCLIFixture(seed: Self.slowUploadSeed)
        defer { fixture.close() }
        let path = try fixture.sandbox.writeFile("big.bin", size: 16 * 1024 * 1024)
        let process = try fixture.start([
            "send", path, "--to", "thread:t1", "--verbose", "--on-cancel", "keep", "--undo-window", "0",
        ])
        #expect(process.waitForLine { $0.contains("uploading big.bin") } != nil)
        process.kill(SIGINT)
        let outcome = process.finish()
        #expect(outcome.status == 130, "\(outcome.stdout) \(outcome.stderr)")
        #expect(outcome.stdout.contains("stays in the share inbox"), "\(outcome.stdout)")
        let entries = try fixture.scanInbox().entries
        #expect(entries.count == 1)
        #expect(entries.first?.isLocked == false)
        #expect(try await fixture.messages(thread: "t1").isEmpty)
    }

    @Test(
        "Ctrl-C during an upload with --on-cancel remove (or its name for scripts, discard): exit 130, nothing kept, nothing sent",
        arguments: ["remove", "discard"])
    func interruptRemoves(_ policy: String) async throws {
        let fixture = try await ShareCLIFixture(seed: Self.slowUploadSeed)
        defer { fixture.close() }
        let path = try fixture.sandbox.writeFile("big.bin", size: 16 * 1024 * 1024)
        let process = try fixture.start(["send", path, "--to", "thread:t1", "--verbose", "--on-cancel", policy])
        #expect(process.waitForLine { $0.contains("uploading big.bin") } != nil)
        process.kill(SIGINT)
        let outcome = process.finish()
        #expect(outcome.status == 130, "\(outcome.stdout) \(outcome.stderr)")
        #expect(outcome.stdout.contains("removed"))
        #expect(try fixture.scanInbox().entries.isEmpty)
        #expect(try await fixture.messages(thread: "t1").isEmpty)
    }

    @Test("Ctrl-C while standard input stalls: exit 130 and no entry is left behind")
    func interruptDuringIntake() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let process = try fixture.start(["send", "--stdin", "--to", "thread:t1", "--verbose", "--load-timeout", "60"])
        // Standard input stays open and silent: intake waits for it with the draft made.
        #expect(process.waitForLine { $0.contains("loading 1 item(s)") } != nil)
        process.kill(SIGINT)
        // Standard input stays open until the program has answered the signal:
        // closing it first would end the load with an empty input instead.
        let said = process.waitForLine { $0.contains("interrupted") }
        let outcome = process.finish()
        #expect(outcome.status == 130, "\(outcome.stderr)")
        #expect(said?.contains("interrupted; the share was removed") == true, "\(said ?? "no line")")
        let scan = try fixture.scanInbox()
        #expect(scan.entries.isEmpty && scan.quarantined.isEmpty)
        let staging =
            (try? FileManager.default.contentsOfDirectory(
                atPath: fixture.sandbox.assembly.container.inboxPath + "/.staging")) ?? []
        #expect(staging.isEmpty, "a draft was left behind: \(staging)")
    }

    @Test("a slow load past --load-timeout is a visible error, exit 1, nothing kept")
    func loadDeadline() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let fifo = fixture.home.file("slow.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        // A writer that opens the FIFO and never writes.
        let writer = open(fifo, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        defer { close(writer) }
        let result = try fixture.share(["send", fifo, "--to", "thread:t1", "--load-timeout", "0.5"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("0.5 seconds"), "\(result.stderr)")
        #expect(try fixture.scanInbox().entries.isEmpty)
    }

    @Test("share inbox list, show, retry and drop, as text and --json")
    func inboxCommands() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        _ = try fixture.share(["send", "--text", "warm up", "--to", "thread:t1"])
        _ = fixture.sandbox.stopServer()
        let first = try fixture.share(["send", "--text", "kept one", "--to", "thread:t1", "--json"])
        let second = try fixture.share(["send", "--text", "kept two", "--to", "thread:t1", "--json"])
        #expect(first.status == 3 && second.status == 3)
        let firstID = try #require(ShareCLIFixture.json(first)["client_msg_id"] as? String)
        let secondID = try #require(ShareCLIFixture.json(second)["client_msg_id"] as? String)

        let list = try fixture.share(["inbox", "list", "--json"])
        #expect(list.status == 0)
        let listed = ShareCLIFixture.json(list)["entries"] as? [[String: Any]] ?? []
        #expect(listed.compactMap { $0["client_msg_id"] as? String }.sorted() == [firstID, secondID].sorted())
        #expect(listed.allSatisfy { ($0["last_error"] as? String)?.isEmpty == false })
        let text = try fixture.share(["inbox", "list"])
        #expect(
            text.stdout.contains(String(firstID.suffix(6)))
                && text.stdout.contains("server > Gateway > resume the gateway"),
            "\(text.stdout)")

        let show = try fixture.share(["inbox", "show", firstID])
        #expect(show.status == 0)
        #expect(show.stdout.contains("kept one"))
        #expect(try fixture.share(["inbox", "show", "no-such-entry"]).status == 1)

        let drop = try fixture.share(["inbox", "drop", secondID, "--json"])
        #expect(drop.status == 0)
        #expect(ShareCLIFixture.json(drop)["status"] as? String == "dropped")

        try fixture.sandbox.restartServer()
        let retry = try fixture.share(["inbox", "retry", firstID, "--json"])
        #expect(retry.status == 0, "\(retry.stdout) \(retry.stderr)")
        #expect(ShareCLIFixture.json(retry)["status"] as? String == "sent")
        #expect(try await fixture.deliveries()[firstID] == 1)
        #expect(try await fixture.deliveries()[secondID] == nil)
        let empty = try fixture.share(["inbox", "list"])
        #expect(empty.stdout.contains("the share inbox is empty"))
    }

    @Test("an entry older than SHAREKIT_INBOX_MAX_AGE_DAYS is reported, never dropped")
    func staleEntriesReported() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let queued = try fixture.share(["send", "--text", "old news", "--to", "thread:t1", "--queue", "--json"])
        let id = try #require(ShareCLIFixture.json(queued)["client_msg_id"] as? String)
        let manifest = fixture.sandbox.assembly.container.inboxPath + "/\(id)/manifest.json"
        var text = try String(contentsOfFile: manifest, encoding: .utf8)
        let created = try #require(text.range(of: #""created_at":"[^"]*""#, options: .regularExpression))
        text.replaceSubrange(created, with: #""created_at":"2026-01-01T00:00:00Z""#)
        try text.write(toFile: manifest, atomically: true, encoding: .utf8)
        #expect(chmod(manifest, 0o600) == 0)  // as private as the inbox wrote it; 0644 is quarantined
        var environment = fixture.sandbox.environment
        environment["SHAREKIT_INBOX_MAX_AGE_DAYS"] = "30"
        let list = try runProcess(BuiltProducts.path("share"), ["inbox", "list"], environment: environment)
        #expect(list.status == 0)
        #expect(list.stdout.contains("older than the maximum age"), "\(list.stdout)")
        #expect(list.stderr.contains("1 entry is older than the maximum age"), "\(list.stderr)")
        let json = ShareCLIFixture.json(
            try runProcess(BuiltProducts.path("share"), ["inbox", "list", "--json"], environment: environment))
        #expect(json["stale"] as? [String] == [id])
        #expect(try fixture.scanInbox().entries.map(\.id) == [id])
    }
}
