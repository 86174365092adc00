import ClientAssembly
import ClientTestSupport
import Foundation
import SessionsInterface
import SharedStateInterface
import TestSupport
import Testing

/// `share status` as a process: sessions, inbox and daemon, never a token.
@Suite("share status")
struct StatusTests {
    @Test("before login: exit 0, not logged in; --json says logged_in false and the daemon is not running")
    func beforeLogin() throws {
        let fixture = try LoginFixture()
        defer { fixture.close() }
        let text = try fixture.share(["status"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("not logged in"), "\(text.stdout)")
        #expect(text.stdout.contains("daemon: not running"))
        let json = try fixture.share(["status", "--json"])
        #expect(json.status == 0)
        let object = LoginFixture.json(json)
        #expect(object["logged_in"] as? Bool == false)
        #expect(object["server"] is NSNull && object["daemon"] is NSNull)
        #expect((object["inbox"] as? [String: Any])?["waiting"] as? Int == 0)
    }

    @Test("after login: server, user, both session ids and expiries; no token in any output; after logout: logged out")
    func afterLogin() async throws {
        let fixture = try LoginFixture()
        defer { fixture.close() }
        try await fixture.loginWithChild()
        let parent = try #require(try fixture.stored(.parent))
        let child = try #require(try fixture.stored(.child))
        let secrets = try fixture.tokenTexts()

        let json = try fixture.share(["status", "--json"])
        let text = try fixture.share(["status"])
        #expect(json.status == 0 && text.status == 0)
        for output in [json.stdout, json.stderr, text.stdout, text.stderr] {
            for secret in secrets { #expect(!output.contains(secret)) }
        }
        let object = LoginFixture.json(json)
        #expect(object["logged_in"] as? Bool == true)
        #expect(object["server"] as? String == fixture.origin)
        #expect(object["user"] as? String == "alex")
        let parentObject = object["parent"] as? [String: Any]
        #expect(parentObject?["session_id"] as? String == parent.sessionID)
        #expect(parentObject?["expired"] as? Bool == false)
        #expect((parentObject?["refresh_expires_at"] as? String)?.hasSuffix("Z") == true)
        #expect((object["child"] as? [String: Any])?["session_id"] as? String == child.sessionID)
        #expect(text.stdout.contains("server: \(fixture.origin)"))
        #expect(text.stdout.contains("user: alex"))
        #expect(text.stdout.contains("parent session: \(parent.sessionID) (refresh token expires "))
        #expect(text.stdout.contains("child session: \(child.sessionID)"))
        #expect(text.stdout.contains("share inbox: 0 waiting"))

        #expect(try fixture.share(["logout"]).status == 0)
        let after = LoginFixture.json(try fixture.share(["status", "--json"]))
        #expect(after["logged_in"] as? Bool == false)
        #expect(after["parent"] is NSNull && after["child"] is NSNull)
    }

    @Test("a running daemon: its status is passed through, failed shares with their reasons")
    func daemonStatus() async throws {
        let fixture = try LoginFixture()
        defer { fixture.close() }
        #expect(try fixture.login().status == 0)
        let answer = """
            {"pid":4242,"outbox":{"pending":2,"sending":1,"sent":7,"failed":1},\
            "failed":[{"client_msg_id":"0190-abc","target":"thread:thr_9","reason":"no write permission"}],\
            "child_session":"ok","last_pass_at":"2025-01-02T03:04:05Z"}
            """
        let daemon = try FakeDaemon(path: DaemonControl.socketPath(of: fixture.sandbox.assembly), answer: answer)
        defer { daemon.stop() }

        let text = try fixture.share(["status"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("daemon: running (pid 4242)"), "\(text.stdout)")
        #expect(text.stdout.contains("outbox: 2 pending, 1 sending, 7 sent, 1 failed"))
        #expect(text.stdout.contains("child session: ok"))
        #expect(text.stdout.contains("failed: 0190-abc to thread:thr_9: no write permission"))
        let object = LoginFixture.json(try fixture.share(["status", "--json"]))
        let passed = object["daemon"] as? [String: Any]
        #expect(passed?["pid"] as? Int == 4242)
        #expect((passed?["outbox"] as? [String: Any])?["sent"] as? Int == 7)
        #expect(daemon.requests.filter { $0 == "status" }.count == 2, "\(daemon.requests)")
    }
}
