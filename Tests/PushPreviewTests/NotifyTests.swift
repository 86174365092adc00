import Dispatch
import Foundation
import Glibc
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitCore
import ShareKitHTTPInterface
import ShareKitHTTPTypes
import ShareKitKeychainInterface
import ShareKitPushPreview
import ShareKitPushPreviewInterface
import ShareKitSQLInterface
import ShareKitSQLiteStore
import ShareKitSessions
import ShareKitSessionsInterface
import ShareKitSharedState
import ShareKitSharedStateInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Synchronization
import Testing

/// `share notify` against share-server: what each mode shows, the
/// placeholder's cases, strict payloads, the nonce, no content in the
/// shared container, no session needed.
///
/// One test at a time: each test blocks a thread of the task pool while a
/// `share notify` or `share-server` process starts and ends, and on two
/// cores a few of those at once held back the 400 ms deadline of the
/// in-process notifier by seconds.
@Suite("share notify", .serialized)
struct NotifyTests {
    @Test("full, names and none show exactly the fields the answer carries; none makes no request")
    func modes() async throws {
        let fixture = try await PushFixture()
        defer { fixture.close() }

        try await fixture.setMode(.full)
        let full = try fixture.notify(fixture.payload())
        #expect(full.status == 0, "\(full.stderr)")
        let fullJSON = PushFixture.json(full)
        #expect(fullJSON["title"] as? String == "alex · \(PushFixture.threadTitle)")
        #expect(fullJSON["body"] as? String == "\(PushFixture.channelName): \(PushFixture.excerpt)")
        #expect(fullJSON["placeholder"] as? Bool == false)
        #expect(fullJSON["outcome"] as? String == "preview")
        #expect(fullJSON["thread_id"] as? String == "t-1")
        #expect(fullJSON["badge"] as? Int == 3)

        try await fixture.setMode(.names)
        let names = PushFixture.json(try fixture.notify(fixture.payload()))
        #expect(names["title"] as? String == "alex · \(PushFixture.threadTitle)")
        #expect(names["body"] as? String == "New message in \(PushFixture.channelName)")
        #expect(!(names["body"] as? String ?? "").contains(PushFixture.excerpt))
        #expect(fixture.previewLines().count == 2, "one request per mode full and names")

        try await fixture.setMode(.none)
        let none = try fixture.notify(fixture.payload(), ["--print"])
        #expect(none.status == 0, "\(none.stderr)")
        #expect(none.stdout == "New notification\nNew message\n")
        let mention = PushFixture.json(try fixture.notify(fixture.payload(kind: "mention")))
        #expect(mention["body"] as? String == "You were mentioned")
        #expect(mention["placeholder"] as? Bool == true)
        _ = fixture.sandbox.stopServer()
        #expect(fixture.previewLines().count == 2, "mode none made no request: \(fixture.previewLines())")
    }

    @Test("a message that is gone: 404 -> \"Message not available\"")
    func notAvailable() async throws {
        let fixture = try await PushFixture()
        defer { fixture.close() }
        let result = PushFixture.json(try fixture.notify(fixture.payload(message: "m-gone")))
        #expect(result["body"] as? String == "Message not available")
        #expect(result["outcome"] as? String == "not_available")
        #expect(result["placeholder"] as? Bool == false)
    }

    @Test("a payload version other than 1 is shown as sent, without a request")
    func otherVersionUnchanged() async throws {
        let fixture = try await PushFixture()
        defer { fixture.close() }
        let payload: [String: Any] = [
            "aps": [
                "alert": ["title": "Maintenance tonight", "body": "Sam will restart the server"], "thread-id": "x",
            ],
            "b": ["v": 2, "future": ["nid": 5]],
        ]
        let result = try fixture.notify(payload)
        #expect(result.status == 0, "\(result.stderr)")
        let json = PushFixture.json(result)
        #expect(json["title"] as? String == "Maintenance tonight")
        #expect(json["body"] as? String == "Sam will restart the server")
        #expect(json["outcome"] as? String == "unchanged")
        #expect(fixture.previewLines().isEmpty)
    }

    @Test("unknown members are ignored; a missing required member fails with exit 1 and names it")
    func strictPayloads() async throws {
        let fixture = try await PushFixture()
        defer { fixture.close() }
        var extra = fixture.payload(extra: ["x-unknown": [1, 2]])
        var b = try #require(extra["b"] as? [String: Any])
        b["z"] = "ignored"
        extra["b"] = b
        let tolerant = PushFixture.json(try fixture.notify(extra))
        #expect(tolerant["outcome"] as? String == "preview")

        for member in ["nid", "k", "i", "v"] {
            var payload = fixture.payload()
            var b = try #require(payload["b"] as? [String: Any])
            b[member] = nil
            payload["b"] = b
            let result = try fixture.notify(payload)
            #expect(result.status == 1, "without b.\(member)")
            #expect(result.stderr.contains("b.\(member)"), "\(result.stderr)")
        }
        var noB = fixture.payload()
        noB["b"] = nil
        #expect(try fixture.notify(noB).status == 1)
        #expect(try fixture.notify(text: "not json").status == 1)
        let usage = try runProcess(BuiltProducts.path("share"), ["notify"], environment: fixture.sandbox.environment)
        #expect(usage.status == 2, "--payload is required")
    }

    @Test("a preview answer: unknown members ignored, a missing required member keeps the placeholder")
    func strictAnswers() async throws {
        let fixture = try await PushFixture()
        defer { fixture.close() }
        let extra = try FixedAnswerServer(
            status: 200,
            body:
                #"{"mode":"full","sender_name":"sam","thread_title":null,"channel_name":"Ideas","excerpt":"hi","new":{"a":1}}"#
        )
        defer { extra.stop() }
        try fixture.pointRegistration(at: extra.origin)
        let tolerant = PushFixture.json(try fixture.notify(fixture.payload()))
        #expect(tolerant["title"] as? String == "sam")
        #expect(tolerant["body"] as? String == "Ideas: hi")

        let missing = try FixedAnswerServer(status: 200, body: #"{"mode":"full","sender_name":"sam","excerpt":"hi"}"#)
        defer { missing.stop() }
        try fixture.pointRegistration(at: missing.origin)
        let strict = PushFixture.json(try fixture.notify(fixture.payload()))
        #expect(strict["placeholder"] as? Bool == true)
        #expect(strict["failure"] as? String == "invalid_response")
        #expect(!(strict["body"] as? String ?? "").contains("hi"))

        let refused = try FixedAnswerServer(status: 503, body: "{}")
        defer { refused.stop() }
        try fixture.pointRegistration(at: refused.origin)
        let other = PushFixture.json(try fixture.notify(fixture.payload()))
        #expect(other["failure"] as? String == "status 503")
        #expect(other["body"] as? String == "New message")
    }

    @Test("a server that never answers: the placeholder stays, within client.push.fetch_timeout")
    func deadline() async throws {
        let fixture = try await PushFixture()
        defer { fixture.close() }
        let silent = try SilentServer()
        defer { silent.stop() }
        try fixture.pointRegistration(at: silent.origin)
        try fixture.state.set("400", for: .pushFetchTimeout)
        let notifier = inProcessNotifier(fixture)
        let start = ContinuousClock.now
        let shown = await notifier.render(try PushPayloadParser.parse(payloadBytes(fixture)), receivedAt: start)
        let elapsed = ContinuousClock.now - start
        #expect(shown.isPlaceholder)
        #expect(shown.failure == .deadline)
        #expect(shown.title == "New notification" && shown.body == "New message")
        // Well under the 5 s default, with room for a loaded machine: the
        // 400 ms setting was used, not the default.
        #expect(elapsed >= .milliseconds(380) && elapsed < .seconds(3), "took \(elapsed)")

        let result = PushFixture.json(try fixture.notify(fixture.payload()))
        #expect(result["placeholder"] as? Bool == true)
        #expect(result["failure"] as? String == "deadline")
    }

    @Test("no network (a closed port): the placeholder stays, at once")
    func networkError() async throws {
        let fixture = try await PushFixture()
        defer { fixture.close() }
        let closed = try SilentServer()
        let origin = closed.origin
        closed.stop()
        try fixture.pointRegistration(at: origin)
        // A fetch timeout far above what a refused connection takes, even on
        // a loaded machine: the failure must come from the refusal, not the clock.
        try fixture.state.set("30000", for: .pushFetchTimeout)
        let start = ContinuousClock.now
        let shown = await inProcessNotifier(fixture).render(
            try PushPayloadParser.parse(payloadBytes(fixture)), receivedAt: start)
        #expect(shown.isPlaceholder)
        #expect(shown.failure == .network)
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @Test("a server that requires nonces: one repetition with the new nonce, then the preview")
    func nonceRetry() async throws {
        let fixture = try await PushFixture(requireNonce: true)
        defer { fixture.close() }
        // The login left a nonce in the shared cache; without it the first try is refused.
        try fixture.state.set(nil, for: .dpopNonce(origin: fixture.origin))
        let result = PushFixture.json(try fixture.notify(fixture.payload()))
        #expect(result["outcome"] as? String == "preview", "\(result)")
        let lines = fixture.previewLines()
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.contains(" 401 ") == true && lines.last?.contains(" 200 ") == true, "\(lines)")
    }

    @Test("the shared container holds no message content after previews in every mode")
    func noContentInSharedState() async throws {
        let fixture = try await PushFixture()
        defer { fixture.close() }
        for mode in PreviewMode.allCases {
            try await fixture.setMode(mode)
            #expect(try fixture.notify(fixture.payload()).status == 0)
            #expect(try fixture.notify(fixture.payload(message: "m-gone")).status == 0)
        }
        let texts = fixture.containerTexts()
        #expect(!texts.isEmpty)
        for (name, text) in texts {
            for content in [PushFixture.excerpt, PushFixture.threadTitle, PushFixture.channelName, "Deploy", "Gateway"]
            {
                #expect(!text.contains(content), "\(name) holds \(content)")
            }
        }
        #expect(try fixture.state.integer(for: .displayCount) == 6)
        #expect(try fixture.state.integer(for: .placeholderCount) == 2)
        #expect(try fixture.state.integer(for: .displayDurationTotal) ?? -1 >= 0)
    }

    @Test("the notifier needs no session: both families' tokens deleted, the preview still shows")
    func noSessionNeeded() async throws {
        let fixture = try await PushFixture()
        defer { fixture.close() }
        try await fixture.sandbox.connection.issuer.deleteStoredSession(.child)
        try await fixture.sandbox.connection.issuer.deleteStoredSession(.parent)
        #expect(try fixture.sandbox.connection.storage.read(.parent) == nil)
        #expect(try fixture.sandbox.connection.storage.read(.child) == nil)
        let result = PushFixture.json(try fixture.notify(fixture.payload()))
        #expect(result["body"] as? String == "\(PushFixture.channelName): \(PushFixture.excerpt)")
        #expect(try fixture.sandbox.connection.storage.read(.parent) == nil, "nothing made a session")
        #expect(!fixture.sandbox.server.log.contains("/api/v1/auth/refresh"))
    }

    @Test("German texts with LANG=de_DE.UTF-8")
    func german() async throws {
        let fixture = try await PushFixture()
        defer { fixture.close() }
        let german = ["LANG": "de_DE.UTF-8"]
        try await fixture.setMode(.names)
        let names = PushFixture.json(try fixture.notify(fixture.payload(), environment: german))
        #expect(names["body"] as? String == "Neue Nachricht in \(PushFixture.channelName)")
        let gone = PushFixture.json(try fixture.notify(fixture.payload(message: "m-gone"), environment: german))
        #expect(gone["body"] as? String == "Nachricht nicht verfügbar")
        try await fixture.setMode(.none)
        let none = try fixture.notify(fixture.payload(kind: "dm"), ["--print"], environment: german)
        #expect(none.stdout == "Neue Benachrichtigung\nNeue Direktnachricht\n")
    }

    @Test("by default a desktop notification: grouped by thread, the badge as a hint")
    func desktopDelivery() async throws {
        let fixture = try await PushFixture()
        defer { fixture.close() }
        let record = fixture.sandbox.home.file("notify-send.args")
        let script = try notifyScript(fixture, record: record)
        let result = try fixture.notify(fixture.payload(), [], environment: ["SHAREKIT_NOTIFY_COMMAND": script])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let arguments = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(arguments.contains("--hint=string:x-sharekit-thread:t-1"))
        #expect(arguments.contains("--hint=int:x-sharekit-badge:3"))
        #expect(
            arguments.suffix(2) == [
                "alex · \(PushFixture.threadTitle)", "\(PushFixture.channelName): \(PushFixture.excerpt)",
            ])

        let failing = try fixture.notify(fixture.payload(), [], environment: ["SHAREKIT_NOTIFY_COMMAND": "false"])
        #expect(failing.status == 1)
    }

    @Test("a 200 KB b.t or alert is cut with an ellipsis on a character boundary, and the notification is shown")
    func longFieldsAreCut() async throws {
        let fixture = try await PushFixture()
        defer { fixture.close() }
        let record = fixture.sandbox.home.file("notify-send.args")
        let script = try notifyScript(fixture, record: record)
        // 200 KB of a three-byte character: one argument over Linux's 128 KiB
        // limit made notify-send impossible to start.
        let long = String(repeating: "€", count: 70_000)
        var payload = fixture.payload()
        var b = try #require(payload["b"] as? [String: Any])
        b["t"] = long
        payload["b"] = b
        var aps = try #require(payload["aps"] as? [String: Any])
        aps["thread-id"] = nil
        payload["aps"] = aps
        let shown = try fixture.notify(payload, [], environment: ["SHAREKIT_NOTIFY_COMMAND": script])
        #expect(shown.status == 0, "\(shown.stderr)")
        let arguments = StandIns.lines(record)
        let hint = try #require(arguments.first { $0.hasPrefix("--hint=string:x-sharekit-thread:") })
        let thread = hint.dropFirst("--hint=string:x-sharekit-thread:".count)
        #expect(thread.hasSuffix("€…") && thread.utf8.count <= 1024, "\(thread.utf8.count) bytes")
        #expect(arguments.last == "\(PushFixture.channelName): \(PushFixture.excerpt)", "the preview is shown")

        // A push of another version is shown as sent: its 200 KB title and body are cut too.
        let unchanged: [String: Any] = [
            "aps": ["alert": ["title": long, "body": String(repeating: "ab", count: 100_000)]], "b": ["v": 2],
        ]
        let plain = try fixture.notify(unchanged, [], environment: ["SHAREKIT_NOTIFY_COMMAND": script])
        #expect(plain.status == 0, "\(plain.stderr)")
        let texts = StandIns.lines(record).suffix(2)
        #expect(texts.allSatisfy { $0.hasSuffix("…") && $0.utf8.count <= 8192 }, "\(texts.map(\.utf8.count))")
        let json = PushFixture.json(try fixture.notify(unchanged))
        #expect((json["title"] as? String)?.hasSuffix("€…") == true)
    }

    @Test("a 600 MB payload from a pipe is refused after the limit; the process stays small")
    func hugePayloadIsRefused() async throws {
        let fixture = try await PushFixture()
        defer { fixture.close() }
        let locale = ["LANG": "C.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""]
        // The peak is read by a small parent of `share` (RUSAGE_CHILDREN):
        // a process spawned from this test runner starts with the runner's
        // own peak in its ru_maxrss (Linux keeps the high-water mark of the
        // memory it shared before exec), which hides the child's.
        let measure = """
            import resource, subprocess, sys
            code = subprocess.run(sys.argv[1:]).returncode
            print("peak-kib", resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            sys.exit(code)
            """
        let child = try SpawnedChild(
            "/usr/bin/python3", ["-c", measure, BuiltProducts.path("share"), "notify", "--payload", "-", "--print"],
            environment: fixture.sandbox.environment.merging(locale) { $1 }, mergeErrors: false)
        let total = 600 << 20
        let written = Mutex(0)
        let writerDone = DispatchSemaphore(value: 0)
        // The writer blocks SIGPIPE for itself: the reader stops early, and
        // writing then fails with EPIPE instead of killing the test.
        let writer = Thread {
            defer { writerDone.signal() }
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
            let start = Array(#"{"aps":{},"b":{"v":1,"nid":"n","k":"message","i":"x","t":""#.utf8)
            let filler = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 16)
            var sent = 0
            while sent < total {
                let chunk = sent == 0 ? start : filler
                let n = chunk.withUnsafeBytes { write(child.input, $0.baseAddress, min($0.count, total - sent)) }
                if n < 0, errno == EINTR { continue }
                if n <= 0 { break }
                sent += n
            }
            written.withLock { $0 = sent }
            close(child.input)
        }
        writer.start()
        let output = readToEnd([child.output, child.errors])
        let (status, _) = child.wait()
        writerDone.wait()
        let accepted = written.withLock { $0 }
        #expect(accepted < (1 << 20) + (2 << 20), "the reader took \(accepted) bytes")
        let stderr = String(decoding: output[1], as: UTF8.self)
        #expect(status == 1, "\(stderr)")
        #expect(stderr.contains("larger than 1024 KiB"), "\(stderr)")
        let peak = String(decoding: output[0], as: UTF8.self).split(separator: "\n").last { $0.hasPrefix("peak-kib ") }
            .flatMap { Int($0.dropFirst("peak-kib ".count)) }
        #expect(peak.map { $0 < 100 * 1024 } == true, "peak resident set \(peak.map(String.init) ?? "?") KiB")
        print("share notify with a 600 MB payload: peak RSS \(peak ?? -1) KiB, exit \(status)")

        // From a file the same limit holds: 2 MiB of payload is refused.
        let path = fixture.sandbox.home.file("big-payload.json")
        try Data(repeating: UInt8(ascii: " "), count: 2 << 20).write(to: URL(fileURLWithPath: path))
        let fromFile = try runProcess(
            BuiltProducts.path("share"), ["notify", "--payload", path, "--print"],
            environment: fixture.sandbox.environment.merging(locale) { $1 })
        #expect(fromFile.status == 1 && fromFile.stderr.contains("larger than 1024 KiB"), "\(fromFile.stderr)")
    }

    // MARK: - Helpers

    func payloadBytes(_ fixture: PushFixture) throws -> [UInt8] {
        Array(try JSONSerialization.data(withJSONObject: fixture.payload()))
    }

    func inProcessNotifier(_ fixture: PushFixture) -> PushNotifier {
        PushNotifier(
            client: fixture.sandbox.connection.previewClient(), registrations: fixture.registrations,
            state: fixture.state, strings: PushStrings(environment: ["LANG": "C"]))
    }
}

/// A stand-in for notify-send that writes its arguments, one per line, to
/// `record` (the last call's only).
func notifyScript(_ fixture: PushFixture, record: String) throws -> String {
    try StandIns.script(
        fixture, name: "fake-notify-send", body: "for a in \"$@\"; do printf '%s\\n' \"$a\"; done > '\(record)'\n")
}
