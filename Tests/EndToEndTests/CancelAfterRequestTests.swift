import Foundation
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitHTTPInterface
import ShareKitInboxInterface
import ShareKitSessionsInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// Ctrl-C once the message itself went to the server: the server may have
/// stored it whatever the client does, so `share send` waits for the answer
/// a few seconds and, when none comes, keeps the share for the daemon
/// whatever `--on-cancel` says. The server's `201` is held back by a proxy
/// between the real `share` process and the real server.
@Suite("share send: Ctrl-C after the message was sent to the server")
struct CancelAfterRequestTests {
    /// `share`'s environment with every request through `proxy`.
    static func environment(_ fixture: ShareCLIFixture, proxy: HoldingProxy) -> [String: String] {
        fixture.sandbox.environment.merging([
            "http_proxy": proxy.origin, "no_proxy": "", "NO_PROXY": "", "HTTP_PROXY": "",
        ]) { $1 }
    }

    /// What `share` said and did when Ctrl-C came while the server's answer was held back.
    struct Interrupted {
        /// The held answer's status (the server had done its work).
        var held: Int?
        /// The line that said Ctrl-C waits for the answer.
        var waiting: String?
        /// The exit status.
        var status: Int32
        /// Everything `share` printed (standard output and error).
        var output: String
        /// How long `share` took after saying it waits.
        var waited: Duration
    }

    /// Runs `share <arguments>` through a proxy that holds back the answer
    /// to `POST <path>`, sends SIGINT once the server has answered, waits for
    /// the line that says `share` waits for the answer, and then lets the
    /// answer go (`release`) or never does.
    static func interruptWhileAnswerHeld(
        _ fixture: ShareCLIFixture, holding path: String, _ arguments: [String], release: Bool
    ) throws -> Interrupted {
        let proxy = try HoldingProxy([.init("POST", path, .hold)])
        defer { proxy.stop() }
        let process = try HelperProcess(
            executable: BuiltProducts.path("share"), arguments, environment: environment(fixture, proxy: proxy),
            mergeErrors: true)
        // The server has done the work and answered; the answer waits in the proxy.
        let held = proxy.waitUntilHeld()
        process.kill(SIGINT)
        var said: [String] = []
        while let line = process.readLine(until: ContinuousClock.now + .seconds(120)) {
            said.append(line)
            if line.contains("waiting up to") { break }
        }
        let waiting = said.last { $0.contains("waiting up to") }
        if release { proxy.release() }
        let started = ContinuousClock.now
        let outcome = process.finish()
        let waited = ContinuousClock.now - started
        said.append(outcome.stdout)
        return Interrupted(
            held: held, waiting: waiting, status: outcome.status, output: said.joined(separator: "\n"),
            waited: waited)
    }

    @Test("no answer within the wait: not removed despite --on-cancel remove; the daemon finishes it, once")
    func unknownOutcomeKept() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let run = try Self.interruptWhileAnswerHeld(
            fixture, holding: "/api/v1/threads/t1/messages",
            [
                "send", "--text", "stored while you pressed Ctrl-C", "--to", "thread:t1", "--on-cancel", "remove",
                "--undo-window", "0",
            ],
            release: false)
        #expect(run.held == 201)
        #expect(run.waiting?.contains("waiting up to 5 s") == true, "\(run.output)")
        #expect(run.status == 130, "\(run.output)")
        #expect(!run.output.contains("removed"), "\(run.output)")
        #expect(
            run.output.contains(
                "the message may already be on the server; the share was kept for share-daemon, "
                    + "which finishes it without sending twice"), "\(run.output)")
        #expect(run.waited < .seconds(30), "the wait for the answer is bounded: \(run.waited)")

        // The share waits in the inbox, unlocked; the server has the message once already.
        let entries = try fixture.scanInbox().entries
        #expect(entries.count == 1 && entries.first?.isLocked == false, "\(entries)")
        let id = try #require(entries.first?.id)
        #expect(run.output.contains(String(id.suffix(6))), "named by its short id: \(run.output)")
        #expect(try await fixture.deliveries() == [id: 1])

        // The daemon (straight to the server) finishes it: the server answers with the stored message.
        let pass = try fixture.daemon(["--once"])
        #expect(pass.status == 0, "\(pass.stderr)")
        #expect(pass.stderr.contains("sent \(id) as message"), "\(pass.stderr)")
        #expect(pass.stderr.contains("replay of an earlier delivery"), "\(pass.stderr)")
        #expect(try await fixture.deliveries() == [id: 1])
        #expect(try fixture.scanInbox().entries.isEmpty)
    }

    @Test("no answer, and the undo window: drop says the message may already be on the server")
    func dropSaysItMayHaveBeenSent() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let run = try Self.interruptWhileAnswerHeld(
            fixture, holding: "/api/v1/threads/t1/messages",
            ["send", "--text", "wrong thread", "--to", "thread:t1"], release: false)
        #expect(run.status == 130, "\(run.output)")
        #expect(run.output.contains("it may already be in server > Gateway"), "\(run.output)")
        #expect(run.output.contains("share inbox drop "), "\(run.output)")
        let id = try #require(try fixture.scanInbox().entries.first?.id)

        // Within the window the daemon leaves it alone.
        let pass = try fixture.daemon(["--once"])
        #expect(pass.stderr.contains("\(id) waits for its undo window"), "\(pass.stderr)")
        #expect(try fixture.scanInbox().entries.map(\.id) == [id])

        // Taking it back is never silent about what the server may hold.
        let drop = try fixture.share(["inbox", "drop", String(id.suffix(8))])
        #expect(drop.status == 0, "\(drop.stderr)")
        #expect(drop.stdout.contains("may already be on the server"), "\(drop.stdout)")
        #expect(drop.stdout.contains("server > Gateway > resume the gateway"), "\(drop.stdout)")
        let json = try fixture.share(["inbox", "list", "--json"])
        #expect((ShareCLIFixture.json(json)["entries"] as? [Any])?.isEmpty == true)
    }

    @Test("the answer comes within the wait: reported as sent (exit 0), not removed; a new post alike")
    func answerWithinTheWait() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let run = try Self.interruptWhileAnswerHeld(
            fixture, holding: "/api/v1/channels/c2/threads",
            [
                "send", "--text", "a post made while interrupted", "--to", "new-post:c2", "--new-post",
                "Interrupted post", "--on-cancel", "remove",
            ],
            release: true)
        #expect(run.held == 201)
        #expect(run.waiting != nil, "\(run.output)")
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("sent to "), "\(run.output)")
        #expect(run.output.contains("the server had already stored the message"), "\(run.output)")
        #expect(!run.output.contains("removed"), "\(run.output)")
        #expect(try fixture.scanInbox().entries.isEmpty)
        let titles = try await fixture.threadTitles(matching: "Interrupted post")
        #expect(titles == ["Interrupted post"], "\(titles)")
    }
}

extension ShareCLIFixture {
    /// The titles of the threads whose title contains `query` (searchThreadTitles, Alex's parent session).
    func threadTitles(matching query: String) async throws -> [String] {
        let token = try await sandbox.connection.provider(.parent).currentAccessToken()
        let encoded = query.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? query
        let response = try await sandbox.connection.signed.send(
            HTTPClientRequest(method: .get, url: sandbox.origin + "/api/v1/threads/search?q=\(encoded)&limit=100"),
            accessToken: token.plainText)
        let list = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [[String: Any]] ?? []
        return list.compactMap { $0["title"] as? String }
    }
}
