import ClientAssembly
import ClientTestSupport
import Foundation
import HTTPInterface
import SessionsInterface
import ShareInboxInterface
import SystemTesting
import TestSupport
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

    /// The lines a process prints up to and with the first that satisfies
    /// `predicate` (all of them when none does, until its output ends).
    static func lines(of process: HelperProcess, until predicate: (String) -> Bool) -> [String] {
        var lines: [String] = []
        while let line = process.readLine(until: ContinuousClock.now + .seconds(120)) {
            lines.append(line)
            if predicate(line) { break }
        }
        return lines
    }

    @Test("no answer within the wait: not removed despite --on-cancel remove; the daemon finishes it, once")
    func unknownOutcomeKept() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let proxy = try HoldingProxy([.init("POST", "/api/v1/threads/t1/messages", .hold)])
        defer { proxy.stop() }
        let process = try HelperProcess(
            executable: BuiltProducts.path("share"),
            ["send", "--text", "stored while you pressed Ctrl-C", "--to", "thread:t1", "--on-cancel", "remove"],
            environment: Self.environment(fixture, proxy: proxy), mergeErrors: true)
        // The server has stored the message and answered; the answer waits in the proxy.
        #expect(proxy.waitUntilHeld() == 201, "\(proxy.requests)")
        process.kill(SIGINT)
        var said = Self.lines(of: process) { $0.contains("waiting up to") }
        #expect(said.last?.contains("waiting up to 5 s") == true, "\(said)")
        let started = ContinuousClock.now
        let outcome = process.finish()
        let waited = ContinuousClock.now - started
        said.append(outcome.stdout)
        let output = said.joined(separator: "\n")
        #expect(outcome.status == 130, "\(output) \(outcome.stderr)")
        #expect(!output.contains("removed"), "\(output)")
        #expect(
            output.contains(
                "the message may already be on the server; the share was kept for share-daemon, "
                    + "which finishes it without sending twice"), "\(output)")
        #expect(waited < .seconds(30), "the wait for the answer is bounded: \(waited)")

        // The share waits in the inbox, unlocked; the server has the message once already.
        let entries = try fixture.scanInbox().entries
        #expect(entries.count == 1 && entries.first?.isLocked == false, "\(entries)")
        let id = try #require(entries.first?.id)
        #expect(output.contains(id))
        #expect(try await fixture.deliveries() == [id: 1])

        // The daemon (straight to the server) finishes it: the server answers with the stored message.
        let pass = try fixture.daemon(["--once"])
        #expect(pass.status == 0, "\(pass.stderr)")
        #expect(pass.stderr.contains("sent \(id) as message"), "\(pass.stderr)")
        #expect(pass.stderr.contains("replay of an earlier delivery"), "\(pass.stderr)")
        #expect(try await fixture.deliveries() == [id: 1])
        #expect(try fixture.scanInbox().entries.isEmpty)
    }

    @Test("the answer comes within the wait: reported as sent (exit 0), not removed; a new post alike")
    func answerWithinTheWait() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let proxy = try HoldingProxy([.init("POST", "/api/v1/channels/c2/threads", .hold)])
        defer { proxy.stop() }
        let process = try HelperProcess(
            executable: BuiltProducts.path("share"),
            [
                "send", "--text", "a post made while interrupted", "--to", "new-post:c2", "--new-post", "Interrupted post",
                "--on-cancel", "remove",
            ],
            environment: Self.environment(fixture, proxy: proxy), mergeErrors: true)
        #expect(proxy.waitUntilHeld() == 201, "\(proxy.requests)")
        process.kill(SIGINT)
        var said = Self.lines(of: process) { $0.contains("waiting up to") }
        #expect(said.last?.contains("waiting up to") == true, "\(said)")
        proxy.release()
        let outcome = process.finish()
        said.append(outcome.stdout)
        let output = said.joined(separator: "\n")
        #expect(outcome.status == 0, "\(output) \(outcome.stderr)")
        #expect(output.contains("sent to "), "\(output)")
        #expect(output.contains("the server had already stored the message"), "\(output)")
        #expect(!output.contains("removed"), "\(output)")
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
