import Foundation
import ShareKitClientTestSupport
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// `share` and `share-daemon` against a server that answers with hostile
/// values (a real loopback HTTP server, `HostileServer`): every run ends
/// with an exit code and, for a failure, a message, never a signal.
@Suite("hostile server: numbers, types, sizes and truncation never crash a client")
struct HostileServerTests {
    typealias Route = HostileServer.Route
    typealias Answer = HostileServer.Answer

    /// An app group of its own (the sandbox's server is not used), and the hostile server.
    final class Fixture: @unchecked Sendable {
        let sandbox: ClientSandbox
        let hostile: HostileServer

        init(_ routes: [Route]) throws {
            sandbox = try ClientSandbox(prefix: "hostile-server-test")
            do {
                hostile = try HostileServer(routes)
            } catch {
                sandbox.close()
                throw error
            }
        }

        func run(_ program: String, _ arguments: [String], stdin: String? = nil) throws -> ProcessResult {
            try runProcess(BuiltProducts.path(program), arguments, environment: sandbox.environment, stdin: stdin)
        }

        /// `share login` at the hostile server (whose login answer the routes decide).
        func login() throws -> ProcessResult {
            try run(
                "share", ["login", "--server", hostile.origin, "--user", "alex", "--password-stdin"],
                stdin: "alex-demo-pass\n")
        }

        func close() {
            hostile.stop()
            sandbox.close()
        }
    }

    static let problem404 = Answer(404, #"{"code":"not_found","status":404,"title":"Not found"}"#)
    static let goodLogin = Route("POST", "/api/v1/auth/login", Answer(200, HostileServer.tokenBody()))
    static let goodChild = Route(
        "POST", "/api/v1/auth/extension-sessions", Answer(201, HostileServer.tokenBody()))

    /// Exits by itself (no signal), and says something when it fails.
    static func expectClean(_ result: ProcessResult, _ what: String, sourceLocation: SourceLocation = #_sourceLocation)
    {
        #expect(
            result.status < 128, "\(what) ended by signal \(result.status - 128): \(result.stderr)",
            sourceLocation: sourceLocation)
        if result.status != 0 {
            #expect(
                !(result.stderr + result.stdout).isEmpty, "\(what) ended \(result.status) without a word",
                sourceLocation: sourceLocation)
        }
    }

    @Test(
        "share login: hostile token answers end with a message and an exit code",
        arguments: [
            HostileServer.tokenBody(expiresIn: "9223372036854775807"),
            HostileServer.tokenBody(expiresIn: "9223372036854775807", refreshExpiresIn: "9223372036854775807"),
            HostileServer.tokenBody(expiresIn: "-1"),
            HostileServer.tokenBody(expiresIn: "1e400"),
            HostileServer.tokenBody(expiresIn: #""600""#),
            #"{"session_id":["not","a","string"]}"#,
            "[]",
            String(repeating: "[", count: 100_000),
        ])
    func login(_ body: String) throws {
        let fixture = try Fixture([Route("POST", "/api/v1/auth/login", Answer(200, body))])
        defer { fixture.close() }
        Self.expectClean(try fixture.login(), "share login")
    }

    @Test("share login: an 8 MiB answer, a truncated answer and a redirect are failures with a message")
    func loginTransport() throws {
        let answers = [
            Answer(200, bytes: Array(repeating: UInt8(ascii: " "), count: 8 * 1024 * 1024 + 10)),
            Answer(200, HostileServer.tokenBody(), delivery: .truncated),
            Answer(302, headers: [("Location", "http://127.0.0.1:1/steal")]),
            Answer(200, headers: [("Content-Type", "text/html")], "<html>"),
        ]
        for answer in answers {
            let fixture = try Fixture([Route("POST", "/api/v1/auth/login", answer)])
            defer { fixture.close() }
            let result = try fixture.login()
            Self.expectClean(result, "share login")
            #expect(result.status != 0, "a login without a usable answer cannot succeed")
        }
    }

    @Test("share-daemon --once: hostile limits, child sessions, events, settings and push answers")
    func daemon() throws {
        let variants: [[Route]] = [
            [
                Route(
                    "POST", "/api/v1/auth/extension-sessions",
                    Answer(201, HostileServer.tokenBody(expiresIn: "9223372036854775807"))),
                Route(
                    "GET", "/api/v1/instance/limits",
                    Answer(
                        200,
                        #"{"file_max_upload_bytes":-1,"message_max_attachments":9223372036854775807,"upload_part_size":0}"#
                    )),
                Route("GET", "/api/v1/events", Answer(200, #"{"events":[{"type":7}],"cursor":null}"#)),
                Route("GET", "/api/v1/settings", Answer(200, #"{"notify":{"preview_mode":["x"]}}"#)),
                Route("POST", "/api/v1/push/registrations", Answer(201, #"{"registration_id":5}"#)),
            ],
            [
                Self.goodChild,
                Route(
                    "GET", "/api/v1/instance/limits",
                    Answer(429, headers: [("Retry-After", "10000000000000000")], #"{"code":"slow_down"}"#)),
                Route("GET", "/api/v1/events", Answer(200, HostileServer.tokenBody(), delivery: .truncated)),
                Route(
                    "POST", "/api/v1/push/registrations", Answer(200, bytes: Array(repeating: 0x7B, count: 9_000_000))),
            ],
        ]
        for routes in variants {
            let fixture = try Fixture([Self.goodLogin] + routes)
            defer { fixture.close() }
            let login = try fixture.login()
            #expect(login.status == 0, "\(login.stderr)")
            Self.expectClean(try fixture.run("share-daemon", ["--once"]), "share-daemon --once")
        }
    }

    @Test("share send and the daemon's drain: a 429 asking for 10^16 seconds, parts_count 0, huge received_parts")
    func send() throws {
        let fixture = try Fixture([
            Self.goodLogin, Self.goodChild,
            Route(
                "GET", "/api/v1/instance/limits",
                Answer(200, #"{"file_max_upload_bytes":1048576,"message_max_attachments":4,"upload_part_size":1024}"#)),
            Route(
                "POST", "/api/v1/threads/t1/messages",
                Answer(429, headers: [("Retry-After", "10000000000000000")], #"{"code":"slow_down"}"#)),
            Route("POST", "/api/v1/uploads", Answer(201, #"{"upload_id":"u1","part_size":1024,"parts_count":0}"#)),
            Route(
                "GET", "/api/v1/uploads/u1",
                Answer(200, #"{"upload_state":"pending","received_parts":[9223372036854775807,-1]}"#)),
        ])
        defer { fixture.close() }
        #expect(try fixture.login().status == 0)
        Self.expectClean(try fixture.run("share-daemon", ["--once"]), "share-daemon --once (child session)")
        let text = try fixture.run("share", ["send", "--text", "hello", "--to", "thread:t1"])
        Self.expectClean(text, "share send --text")
        #expect(text.status == 3, "kept for later: \(text.stderr)")
        let path = try fixture.sandbox.writeFile("a.txt", size: 3000)
        let file = try fixture.run("share", ["send", path, "--to", "thread:t1"])
        Self.expectClean(file, "share send FILE")
        #expect(file.status == 3, "kept for later: \(file.stderr)")
        // The daemon takes both over and meets the same answers: it logs and waits, never traps.
        Self.expectClean(try fixture.run("share-daemon", ["--once", "--retry-now"]), "share-daemon --once (drain)")
        Self.expectClean(try fixture.run("share", ["status"]), "share status")
    }

    @Test("share notify: a preview answer of 8 MiB, truncated, or of the wrong types shows the placeholder")
    func notify() throws {
        let registration = Route(
            "POST", "/api/v1/push/registrations",
            Answer(201, #"{"registration_id":"reg1","preview_token":"hostile-preview"}"#))
        let previews = [
            Answer(200, bytes: Array(repeating: UInt8(ascii: "a"), count: 8 * 1024 * 1024 + 1)),
            Answer(
                200, #"{"mode":"full","sender_name":"x","channel_name":"c","thread_title":null}"#, delivery: .truncated),
            Answer(200, #"{"mode":"full","sender_name":7,"channel_name":[],"thread_title":{}}"#),
            Answer(401, #"{"code":"invalid_token"}"#),
        ]
        for preview in previews {
            let fixture = try Fixture([
                Self.goodLogin, Self.goodChild, registration, Route("GET", "/api/v1/push/preview", preview),
            ])
            defer { fixture.close() }
            #expect(try fixture.login().status == 0)
            Self.expectClean(try fixture.run("share-daemon", ["--once"]), "share-daemon --once (push registration)")
            let host = fixture.hostile.origin.replacingOccurrences(of: "http://", with: "")
            let payload = fixture.sandbox.home.file("push.json")
            try Data(
                #"{"aps":{"alert":{"title":"New message"}},"b":{"v":1,"nid":"n1","k":"message","i":"\#(host)","t":"t1","m":"m1"}}"#
                    .utf8
            ).write(to: URL(fileURLWithPath: payload))
            let shown = try fixture.run("share", ["notify", "--payload", payload, "--json"])
            Self.expectClean(shown, "share notify")
        }
    }
}
