import Foundation
import ShareKitClientTestSupport
import ShareKitInboxInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// A share's life as a person follows it afterwards: by its id in
/// `share send --verbose` and in the daemon's journal, and, for one the
/// server refuses later, in `share inbox` and `share status`.
@Suite("a share's lifecycle: the logs and late refusals")
struct ShareLifecycleTests {
    /// The lines of `text` that name `id`.
    static func lines(_ text: String, naming id: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { $0.contains(id) }
    }

    /// The index of the first line with each of `stages`, in order, or the stage that is missing or out of order.
    static func inOrder(_ lines: [String], _ stages: [String]) -> String? {
        var from = 0
        for stage in stages {
            guard let found = lines[from...].firstIndex(where: { $0.contains(stage) }) else {
                return "no \"\(stage)\" after line \(from) in:\n" + lines.joined(separator: "\n")
            }
            from = found
        }
        return nil
    }

    @Test("grep one share's id: written, uploading, kept with the reason (CLI), taken over, sending, sent (journal)")
    func storyByID() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        // The upload goes through; the message is answered 503: the share is kept for the daemon.
        let problem =
            #"{"type":"about:blank","status":503,"code":"storage_unavailable","title":"Storage unavailable"}"#
        let proxy = try HoldingProxy([
            .init("POST", "/api/v1/threads/t1/messages", .answer(status: 503, body: problem))
        ])
        defer { proxy.stop() }
        // A file name with an escape sequence: shown escaped, never obeyed.
        let path = fixture.home.file("notes\u{1B}[31m.txt")
        try Data("some notes\n".utf8).write(to: URL(fileURLWithPath: path))
        let text = "the words of the message stay out of every log"
        let environment = CancelAfterRequestTests.environment(fixture, proxy: proxy)
        let cli = try runProcess(
            BuiltProducts.path("share"),
            ["send", path, "--comment", text, "--to", "thread:t1", "--verbose", "--progress", "off"],
            environment: environment)
        #expect(cli.status == 3, "\(cli.stdout) \(cli.stderr)")
        let id = try #require(try fixture.scanInbox().entries.first?.id)

        let said = Self.lines(cli.stderr, naming: id)
        let cliStages = [
            "loading 1 item(s)", "written to the share inbox", "uploading notes", "uploaded as", "creating the message",
            "kept for share-daemon: the server had a problem (503",
        ]
        #expect(Self.inOrder(said, cliStages) == nil, "\(Self.inOrder(said, cliStages) ?? "")")
        #expect(said.allSatisfy { $0.hasPrefix("share send: \(id): ") }, "\(said)")
        #expect(!cli.stderr.contains("\u{1B}"), "an escape sequence reached the terminal")
        #expect(cli.stderr.contains(#"notes\u{1B}[31m.txt"#), "\(cli.stderr)")

        // The daemon, straight to the server, in the journal's form, at its ordinary level.
        let journal = try SmallerThingsTests.daemonLog(fixture, journalStreamOfFile: true)
        let logged = Self.lines(journal, naming: id)
        let daemonStages = [
            "<6>takeover: \(id) taken over from the share inbox", "<6>outbox: \(id) sending, attempt",
            "<6>outbox: sent \(id) as message",
        ]
        #expect(Self.inOrder(logged, daemonStages) == nil, "\(Self.inOrder(logged, daemonStages) ?? "")")
        // The takeover's line says what the CLI's attempt left: when, where, why it was kept.
        let takeover = logged.first { $0.contains("taken over") } ?? ""
        #expect(takeover.contains("thread:t1") && takeover.contains("share send tried 1 time(s)"), "\(takeover)")
        #expect(takeover.contains("503"), "\(takeover)")
        #expect(journal.contains("took over 1 entry"), "the count stays beside the shares")

        for output in [cli.stdout, cli.stderr, journal] {
            #expect(!output.contains(text), "the message's text was logged")
            for token in try fixture.tokens() { #expect(!output.contains(token), "a token was logged") }
        }
        #expect(try await fixture.deliveries() == [id: 1])
    }

    @Test(
        "queued while the server was down, to a thread that does not exist and one closed meanwhile: refused by the daemon, the reasons shown"
    )
    func refusedLaterWithReason() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        _ = fixture.sandbox.stopServer()
        let gone = try fixture.share(["send", "--text", "to nowhere", "--to", "thread:t-gone", "--queue", "--json"])
        #expect(gone.status == 0, "\(gone.stdout) \(gone.stderr)")
        let goneID = try #require(ShareCLIFixture.json(gone)["client_msg_id"] as? String)
        let closed = try fixture.share(["send", "--text", "closed meanwhile", "--to", "thread:t1", "--json"])
        #expect(closed.status == 3, "\(closed.stdout) \(closed.stderr)")
        let closedID = try #require(ShareCLIFixture.json(closed)["client_msg_id"] as? String)

        // The server is back; before the daemon runs, Alex may no longer write in t1's channel.
        try fixture.sandbox.restartServer()
        #expect(try fixture.server.admin(["revoke-write", "--user", "alex", "--channel", "c1"]).status == 0)
        let pass = try fixture.daemon(["--once"])
        #expect(pass.status == 0, "\(pass.stderr)")
        #expect(
            Self.lines(pass.stderr, naming: goneID).contains { $0.contains("refused (not_found)") }, "\(pass.stderr)")
        #expect(
            Self.lines(pass.stderr, naming: closedID).contains { $0.contains("refused (write_forbidden)") },
            "\(pass.stderr)")
        #expect(try await fixture.deliveries().isEmpty)

        let reasons = [
            goneID: "the conversation no longer exists or you cannot see it",
            closedID: "you can no longer write here",
        ]
        let list = try fixture.share(["inbox", "list", "--json"])
        let failed =
            ((ShareCLIFixture.json(list)["daemon_outbox"] as? [String: Any])?["failed"] as? [[String: Any]]) ?? []
        for (id, reason) in reasons {
            let shown = failed.first { $0["client_msg_id"] as? String == id }?["reason"] as? String
            #expect(shown?.contains(reason) == true, "\(id): \(shown ?? "not listed")")
            let show = try fixture.share(["inbox", "show", id])
            #expect(show.status == 0 && show.stdout.contains(reason), "\(show.stdout) \(show.stderr)")
        }
        let text = try fixture.share(["inbox", "list"])
        #expect(text.stdout.contains("\(goneID.suffix(6))  refused by the server"), "\(text.stdout)")
        let status = try fixture.share(["status"])
        for (id, reason) in reasons {
            let line = Self.lines(status.stdout, naming: String(id.suffix(6))).first ?? ""
            #expect(line.contains("could not send \(id.suffix(6))") && line.contains(reason), "\(status.stdout)")
        }
    }
}
