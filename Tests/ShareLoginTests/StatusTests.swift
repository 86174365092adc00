import Foundation
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitDaemonControl
import ShareKitDaemonControlInterface
import ShareKitSessionsInterface
import ShareKitSharedStateInterface
import ShareKitSystemTesting
import ShareKitTestSupport
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
        let daemon = try FakeDaemon(path: fixture.sandbox.assembly.daemonSocketPath, answer: answer)
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
        #expect(daemon.requests.filter { $0 == DaemonRequest.status.line }.count == 2, "\(daemon.requests)")
    }

    /// Answers another local user's process could write on the socket, and
    /// what `share status` must say about each (after "its answer could not be read: ").
    static let hostileAnswers: [(name: String, answer: [UInt8], reason: String)] = [
        ("garbage", Array("hello, I am not share-daemon".utf8), "not JSON"),
        ("nothing", [], "no answer"),
        ("huge", [UInt8](repeating: UInt8(ascii: "a"), count: 3 << 20), "larger than"),
        (
            "a string pid", Array(#"{"pid":"4242","outbox":{"pending":1,"sending":0,"sent":0,"failed":0}}"#.utf8),
            "`pid` has the wrong type"
        ),
        (
            "an object for a count", Array(#"{"pid":1,"outbox":{"pending":{},"sending":0,"sent":0,"failed":0}}"#.utf8),
            "`outbox.pending` has the wrong type"
        ),
        (
            "counts that would overflow",
            Array(#"{"pid":1,"outbox":{"pending":9223372036854775807,"sending":1,"sent":0,"failed":0}}"#.utf8),
            "`outbox.pending` is not valid"
        ),
        ("a number for a failed list", Array(#"{"pid":1,"failed":7}"#.utf8), "`failed` has the wrong type"),
        ("an array", Array("[1,2,3]".utf8), "the answer has the wrong type"),
        ("no pid", Array(#"{"ok":true}"#.utf8), "`pid` is missing"),
        (
            "deep nesting",
            Array((String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000)).utf8),
            "not JSON"
        ),
        ("invalid UTF-8", [0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D], "not JSON"),
    ]

    @Test("a hostile answer on the socket (garbage, huge, wrong types) is reported, never a crash", arguments: 0..<11)
    func hostileAnswer(index: Int) throws {
        let (name, answer, reason) = Self.hostileAnswers[index]
        let fixture = try LoginFixture()
        defer { fixture.close() }
        let daemon = try FakeDaemon(path: fixture.sandbox.assembly.daemonSocketPath) { _ in answer }
        defer { daemon.stop() }

        let text = try fixture.share(["status"])
        #expect(text.status == 0, "\(name): \(text.stderr)")
        let line = text.stdout.split(separator: "\n").first { $0.hasPrefix("daemon:") } ?? ""
        #expect(line.hasPrefix("daemon: running (its answer could not be read: "), "\(name): \(text.stdout)")
        #expect(line.contains(reason), "\(name): \(line)")
        let json = try fixture.share(["status", "--json"])
        #expect(json.status == 0, "\(name): \(json.stderr)")
        let error = (LoginFixture.json(json)["daemon"] as? [String: Any])?["error"] as? String
        #expect(error?.contains(reason) == true, "\(name): \(json.stdout)")
        let list = try fixture.share(["inbox", "list"])
        #expect(list.status == 0, "\(name): \(list.stderr)")
    }

    @Test("escape sequences and bidirectional overrides in the daemon's strings reach the terminal neutralised")
    func hostileStrings() throws {
        let fixture = try LoginFixture()
        defer { fixture.close() }
        let answer = #"""
            {"pid":77,"child_session":"ok\u001b]0;pwned\u0007\u001b[2J","last_error":"line\nforged: yes",\#
            "outbox":{"pending":0,"sending":0,"sent":0,"failed":1},\#
            "failed":[{"client_msg_id":"id\u202Egnp.exe","target":"thread:t1\u009b31m","reason":"no\u0000"}]}
            """#
        let daemon = try FakeDaemon(path: fixture.sandbox.assembly.daemonSocketPath, answer: answer)
        defer { daemon.stop() }

        let outputs = [try fixture.share(["status"]), try fixture.share(["inbox", "list"])]
        for output in outputs {
            #expect(output.status == 0, "\(output.stderr)")
            for scalar in output.stdout.unicodeScalars where scalar != "\n" {
                #expect(scalar.properties.generalCategory != .control, "\(output.stdout.debugDescription)")
                #expect(scalar.properties.generalCategory != .format, "\(output.stdout.debugDescription)")
            }
        }
        let status = outputs[0].stdout
        #expect(status.contains("daemon: running (pid 77)"), "\(status)")
        #expect(status.contains(#"  child session: ok\u{1B}]0;pwned\u{07}\u{1B}[2J"#), "\(status)")
        #expect(status.contains(#"  last error: line\nforged: yes"#), "\(status)")
        #expect(!status.contains("\nforged: yes"), "a forged line: \(status)")
        #expect(status.contains(#"  failed: id\u{202E}gnp.exe to thread:t1\u{009B}31m: no\0"#), "\(status)")
        #expect(outputs[1].stdout.contains(#"id\u{202E}gnp.exe  refused by the server"#), "\(outputs[1].stdout)")
    }

    @Test("a daemon of the previous version (plain words only) is asked again in its words")
    func previousVersionDaemon() throws {
        let fixture = try LoginFixture()
        defer { fixture.close() }
        let daemon = try FakeDaemon(path: fixture.sandbox.assembly.daemonSocketPath) { line in
            switch line {
            case "status": return Array(#"{"pid":31,"child_session":"ok","taken_over":2}"#.utf8) + [10]
            case "wake": return Array("ok\n".utf8)
            default: return Array("unknown request\n".utf8)
            }
        }
        defer { daemon.stop() }

        let text = try fixture.share(["status"])
        #expect(text.stdout.contains("daemon: running (pid 31)"), "\(text.stdout)")
        #expect(text.stdout.contains("  taken over: 2"), "\(text.stdout)")
        let path = fixture.sandbox.assembly.daemonSocketPath
        let woken = UnixDaemonControl(path: path).send(.wake, expecting: DaemonAcknowledgement.self)
        #expect(woken == .success(DaemonAcknowledgement()))
        let retried = UnixDaemonControl(path: path).send(.retry, expecting: DaemonAcknowledgement.self)
        #expect(retried == .failure(.refused("unknown request")))
        #expect(
            daemon.requests == [
                DaemonRequest.status.line, "status", DaemonRequest.wake.line, "wake", DaemonRequest.retry.line,
                "retry",
            ], "\(daemon.requests)")
    }
}
