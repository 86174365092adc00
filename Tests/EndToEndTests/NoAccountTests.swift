import Foundation
import ShareKitClientTestSupport
import ShareKitInboxInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// A share for a server that no one is logged in to on this device could
/// never be sent: the daemon sends only for the account `share login`
/// chose. So it is refused at once and nothing is kept, and a kept share
/// whose server lost its account is never said to be on its way.
@Suite("a share for a server without an account")
struct NoAccountTests {
    @Test("--server or SHAREKIT_SERVER that is not http(s) is a usage error; nothing is kept")
    func notHTTP() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let flag = try fixture.share(["send", "--server", "ftp://x", "--text", "hi", "--to", "thread:t1"])
        #expect(flag.status == 2, "\(flag.stdout) \(flag.stderr)")
        #expect(flag.stderr.contains("--server must be http(s)://host[:port], not \"ftp://x\""), "\(flag.stderr)")
        #expect(!flag.stdout.contains("kept"))

        let variable = try fixture.share(
            ["send", "--text", "hi", "--to", "thread:t1", "--queue"], environment: ["SHAREKIT_SERVER": "ftp://x"])
        #expect(variable.status == 2, "\(variable.stdout) \(variable.stderr)")
        #expect(variable.stderr.contains("SHAREKIT_SERVER must be http(s)://host[:port], not \"ftp://x\""))

        let targets = try fixture.share(["targets", "--search", "gate", "--server", "ftp://x"])
        #expect(targets.status == 2, "\(targets.stderr)")
        #expect(try fixture.scanInbox().entries.isEmpty)
    }

    @Test("a share for a server with no account is refused at once (exit 4), --queue too; nothing is kept")
    func noAccount() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        // Nobody is logged in there (and nothing listens: it is never asked).
        let elsewhere = "http://127.0.0.1:1"
        let advice = "not logged in at \(elsewhere): share login --server \(elsewhere)"
        for extra in [[], ["--queue"]] {
            let result = try fixture.share(
                ["send", "--server", elsewhere, "--text", "hi", "--to", "thread:t1"] + extra)
            #expect(result.status == 4, "\(extra): \(result.stdout) \(result.stderr)")
            #expect(result.stderr.contains("not sent: " + advice), "\(result.stderr)")
            #expect(!result.stdout.contains("kept") && !result.stdout.contains("queued"), "\(result.stdout)")
        }
        let json = try fixture.share(["send", "--server", elsewhere, "--text", "hi", "--to", "thread:t1", "--json"])
        #expect(json.status == 4)
        #expect(ShareCLIFixture.json(json)["code"] as? String == "not_logged_in", "\(json.stdout)")
        let german = try fixture.share(
            ["send", "--server", elsewhere, "--text", "hi", "--to", "thread:t1"], environment: TestLocale.german)
        #expect(german.status == 4)
        #expect(german.stderr.contains("nicht angemeldet bei \(elsewhere): share login --server \(elsewhere)"))
        #expect(try fixture.scanInbox().entries.isEmpty)
        let list = try fixture.share(["inbox", "list", "--json"])
        #expect((ShareCLIFixture.json(list)["entries"] as? [Any])?.isEmpty == true, "\(list.stdout)")

        // The account's own server, spelled differently, is still the account's.
        let spelled = fixture.sandbox.origin.replacingOccurrences(of: "http://", with: "HTTP://") + "/"
        let sent = try fixture.share(["send", "--server", spelled, "--text", "same server", "--to", "thread:t1"])
        #expect(sent.status == 0, "\(sent.stdout) \(sent.stderr)")
    }

    @Test("share inbox retry of a share whose server has no account says so and keeps it; inbox and outbox")
    func retryWithoutAccount() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        // One share the daemon's outbox holds (refused: the thread does not exist), one in the share inbox.
        let refused = try fixture.share(["send", "--text", "nowhere", "--to", "thread:nope", "--queue", "--json"])
        let outboxID = try #require(ShareCLIFixture.json(refused)["client_msg_id"] as? String, "\(refused.stdout)")
        #expect(try fixture.daemon(["--once"]).status == 0)
        let waiting = try fixture.share(["send", "--text", "later", "--to", "thread:t1", "--queue", "--json"])
        let inboxID = try #require(ShareCLIFixture.json(waiting)["client_msg_id"] as? String, "\(waiting.stdout)")
        let logout = try fixture.share(["logout"])
        #expect(logout.status == 0, "\(logout.stderr)")

        let origin = fixture.sandbox.origin
        for id in [inboxID, outboxID] {
            let retry = try fixture.share(["inbox", "retry", id])
            #expect(retry.status == 1, "\(id): \(retry.stdout) \(retry.stderr)")
            #expect(retry.stderr.contains("\(id) was not sent: not logged in at \(origin)"), "\(retry.stderr)")
            #expect(retry.stderr.contains("share login --server \(origin)"))
            #expect(!(retry.stdout + retry.stderr).contains("will send"), "\(retry.stdout) \(retry.stderr)")
        }
        let json = try fixture.share(["inbox", "retry", inboxID, "--json"])
        #expect(ShareCLIFixture.json(json)["code"] as? String == "not_logged_in", "\(json.stdout)")
        // Both stay where they were, for a later login or a drop.
        #expect(try fixture.scanInbox().entries.map(\.id) == [inboxID])
        let list = try fixture.share(["inbox", "list", "--json"])
        #expect(list.stdout.contains(outboxID), "\(list.stdout)")
    }
}
