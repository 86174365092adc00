import Foundation
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitInboxInterface
import ShareKitSessions
import ShareKitSessionsInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// `share send` end to end: the CLI as a separate process against a real
/// `share-server`, the inbox on disk, the server's messages over HTTP.
@Suite("share send, end to end")
struct ShareSendTests {
    @Test(
        "text into a thread: sent, printed with the display path and message id, nothing left in the inbox",
        arguments: ServerEngine.allCases)
    func textIntoThread(engine: ServerEngine) async throws {
        let fixture = try await ShareCLIFixture(engine: engine)
        defer { fixture.close() }
        let result = try fixture.share(["send", "--text", "hello from the CLI", "--to", "thread:t1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("sent to server > Gateway > resume the gateway: message "))
        let messages = try await fixture.messages(thread: "t1")
        #expect(messages.count == 1)
        #expect(messages.first?["text"] as? String == "hello from the CLI")
        let scan = try fixture.scanInbox()
        #expect(scan.entries.isEmpty && scan.quarantined.isEmpty)
    }

    @Test("a link with a comment, --json: the result object names the message, the text holds both")
    func linkWithComment() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let result = try fixture.share([
            "send", "https://example.org/spec?x=1", "--comment", "have a look", "--to", "channel:c1", "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let object = ShareCLIFixture.json(result)
        #expect(object["status"] as? String == "sent")
        let messageID = try #require(object["message_id"] as? String)
        let messages = try await fixture.messages(channel: "c1")
        let sent = try #require(messages.first { $0["id"] as? String == messageID })
        #expect(sent["text"] as? String == "have a look\nhttps://example.org/spec?x=1")
        #expect(sent["client_msg_id"] as? String == object["client_msg_id"] as? String)
        #expect((object["target"] as? [String: Any])?["display_path"] as? String == "server > Gateway")
    }

    @Test(
        "an image and a PDF make one message with two attachments of concrete types, byte for byte",
        arguments: ServerEngine.allCases)
    func imageAndPDF(engine: ServerEngine) async throws {
        let fixture = try await ShareCLIFixture(engine: engine)
        defer { fixture.close() }
        let png = fixture.home.file("dot.png")
        let pdf = fixture.home.file("paper.pdf")
        try SampleFiles.write(SampleFiles.png, to: png)
        try SampleFiles.write(SampleFiles.pdf, to: pdf)
        let result = try fixture.share(["send", png, "file://" + pdf, "--comment", "two files", "--to", "thread:t1"])
        #expect(result.status == 0, "\(result.stderr)")
        let messages = try await fixture.messages(thread: "t1")
        let attachments = try #require(messages.first?["attachments"] as? [[String: Any]])
        #expect(attachments.map { $0["file_name"] as? String } == ["dot.png", "paper.pdf"])
        #expect(attachments.map { $0["content_type"] as? String } == ["image/png", "application/pdf"])
        // The demo server lists the composite digest, so each file's digest
        // is that of its parts (one part each here), and says so.
        #expect(attachments.map { $0["digest_algorithm"] as? String } == ["sha256-composite", "sha256-composite"])
        #expect(attachments.first?["sha256"] as? String == (try fixture.sandbox.compositeSHA256Hex(ofFile: png)))
        #expect(attachments.last?["sha256"] as? String == (try fixture.sandbox.compositeSHA256Hex(ofFile: pdf)))
    }

    @Test("a new forum post with a title, by display path of the forum channel")
    func newForumPost() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let result = try fixture.share([
            "send", "--text", "what if sharing remembered the last thread?", "--to", "new-post:c2", "--new-post",
            "Remember the last thread", "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let object = ShareCLIFixture.json(result)
        let thread = try #require(object["thread_id"] as? String)
        let messages = try await fixture.messages(thread: thread)
        #expect(messages.first?["text"] as? String == "what if sharing remembered the last thread?")
        #expect(object["channel_id"] as? String == "c2")
    }

    @Test("a display path resolves through the server: the message lands in that thread")
    func displayPathTarget() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let result = try fixture.share([
            "send", "--text", "by path", "--to", "server > Gateway > Gateway timeouts on upload",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try await fixture.messages(thread: "t2").first?["text"] as? String == "by path")
    }

    @Test("an unsupported type is refused before any byte is sent, naming the type; nothing is kept")
    func unsupportedType() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let zip = fixture.home.file("bundle.zip")
        try SampleFiles.write(SampleFiles.zip, to: zip)
        let result = try fixture.share(["send", zip, "--to", "thread:t1"])
        #expect(result.status == 4)
        #expect(result.stderr.contains("application/zip"), "\(result.stderr)")
        #expect(try fixture.scanInbox().entries.isEmpty)
        #expect(!fixture.sandbox.stopServer().contains("/api/v1/uploads"))
    }

    @Test("an oversized file is refused naming the limit; no upload starts")
    func oversizedFile() async throws {
        var seed = DemoLikeSeed.value
        seed["limits"] = ["file_max_upload_bytes": 4096, "message_max_attachments": 3, "upload_part_size": 4096]
        let fixture = try await ShareCLIFixture(seed: seed)
        defer { fixture.close() }
        let path = try fixture.sandbox.writeFile("big.txt", size: 0)
        try Data(repeating: UInt8(ascii: "a"), count: 5000).write(to: URL(fileURLWithPath: path))
        let result = try fixture.share(["send", path, "--to", "thread:t1"])
        #expect(result.status == 4)
        #expect(result.stderr.contains("4096"), "\(result.stderr)")
        #expect(result.stderr.contains("file_max_upload_bytes"))
        #expect(try fixture.scanInbox().entries.isEmpty)
        #expect(!fixture.sandbox.stopServer().contains("/api/v1/uploads"))
    }

    @Test("no network: the share goes to the inbox with the same client_msg_id, exit 3, no token in the manifest")
    func noNetworkQueues() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let png = fixture.home.file("dot.png")
        try SampleFiles.write(SampleFiles.png, to: png)
        // Limits known from an earlier run, as the daemon would have written them.
        _ = try fixture.share(["send", "--text", "warm up", "--to", "thread:t1"])
        let secrets = try fixture.tokens()
        _ = fixture.sandbox.stopServer()
        let result = try fixture.share(["send", png, "--comment", "later", "--to", "thread:t1", "--json"])
        #expect(result.status == 3, "\(result.stdout) \(result.stderr)")
        let object = ShareCLIFixture.json(result)
        #expect(object["status"] as? String == "queued")
        let scan = try fixture.scanInbox()
        let entry = try #require(scan.entries.first)
        #expect(entry.manifest.clientMsgID == object["client_msg_id"] as? String)
        #expect(entry.manifest.comment == "later")
        #expect(entry.manifest.attachments.map(\.contentType) == ["image/png"])
        #expect(entry.manifest.attempts == 1)
        #expect(entry.manifest.lastError?.contains("connect") == true, "\(entry.manifest.lastError ?? "")")
        #expect(!entry.isLocked)
        for text in fixture.manifestTexts() {
            for secret in secrets { #expect(!text.contains(secret), "a manifest holds a token") }
        }
    }

    @Test("--queue writes the entry and returns at once without sending")
    func queueOnly() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let result = try fixture.share(["send", "--text", "for the daemon", "--to", "thread:t1", "--queue"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("; it will send it to "), "\(result.stdout)")
        #expect(try fixture.scanInbox().entries.count == 1)
        #expect(try await fixture.messages(thread: "t1").isEmpty)
    }

    @Test("a revoked child session: the share is kept in the inbox and the child tokens are deleted")
    func revokedChildSession() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let child = try #require(try fixture.sandbox.connection.storage.read(.child))
        let revoke = try fixture.server.admin(["revoke-session", "--session", child.sessionID])
        #expect(revoke.status == 0, "\(revoke.stderr)")
        let result = try fixture.share(["send", "--text", "after revocation", "--to", "thread:t1"])
        #expect(result.status == 3, "\(result.stdout) \(result.stderr)")
        #expect(try fixture.scanInbox().entries.count == 1)
        #expect(try fixture.sandbox.connection.storage.read(.child) == nil)
        #expect(try fixture.sandbox.connection.storage.read(.parent) != nil)
    }

    @Test("403 after write permission is revoked: the reason is shown, exit 4, nothing is kept")
    func writeRevoked() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let revoke = try fixture.server.admin(["revoke-write", "--user", "alex", "--channel", "c1"])
        #expect(revoke.status == 0, "\(revoke.stderr)")
        let result = try fixture.share(["send", "--text", "no longer allowed", "--to", "thread:t1"])
        #expect(result.status == 4, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("you can no longer write here") || result.stderr.contains("write"))
        let scan = try fixture.scanInbox()
        #expect(scan.entries.isEmpty && scan.quarantined.isEmpty)
    }

    @Test("too many files are refused before anything is copied or sent")
    func tooManyAttachments() async throws {
        var seed = DemoLikeSeed.value
        seed["limits"] = ["file_max_upload_bytes": 1_048_576, "message_max_attachments": 2]
        let fixture = try await ShareCLIFixture(seed: seed)
        defer { fixture.close() }
        var paths: [String] = []
        for index in 0..<3 {
            let path = fixture.home.file("note\(index).txt")
            try Data("note \(index)\n".utf8).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let result = try fixture.share(["send"] + paths + ["--to", "thread:t1"])
        #expect(result.status == 4)
        #expect(result.stderr.contains("message_max_attachments"))
        #expect(try fixture.scanInbox().entries.isEmpty)
    }

    @Test("text on standard input becomes the message text")
    func standardInputText() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let result = try fixture.share(["send", "--stdin", "--to", "thread:t1"], stdin: "piped words\n")
        #expect(result.status == 0, "\(result.stderr)")
        let text = try await fixture.messages(thread: "t1").first?["text"] as? String
        #expect(text?.hasPrefix("piped words") == true)
    }

    @Test("memory stays flat: sharing a file twelve times larger costs no more than a few MiB of peak RSS")
    func flatMemory() async throws {
        var seed = DemoLikeSeed.value
        seed["limits"] = [
            "file_max_upload_bytes": 512 * 1024 * 1024, "message_max_attachments": 2, "upload_part_size": 4_194_304,
        ]
        seed["accepted_content_types"] = ["application/octet-stream", "text/plain"]
        let fixture = try await ShareCLIFixture(seed: seed)
        defer { fixture.close() }
        var peaks: [Int] = []
        for (name, size) in [("small.bin", 8 * 1_048_576), ("large.bin", 96 * 1_048_576)] {
            // Sparse, so the test itself holds no buffer of that size; the CLI reads every byte.
            let path = fixture.home.file(name)
            let fd = open(path, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o600)
            #expect(ftruncate(fd, off_t(size)) == 0)
            close(fd)
            let result = try fixture.share(["send", path, "--to", "thread:t1", "--no-progress"])
            #expect(result.status == 0, "\(result.stderr)")
            peaks.append(result.peakResidentKiB)
        }
        let sizes = try await fixture.messages(thread: "t1").compactMap {
            ($0["attachments"] as? [[String: Any]])?.first?["size"] as? Int
        }
        #expect(sizes == [8 * 1_048_576, 96 * 1_048_576])
        // Twelve times the bytes; the copy buffer, the part being hashed and
        // the in-flight part are all that should grow, and they do not.
        #expect(peaks[1] - peaks[0] < 16 * 1024, "peak RSS \(peaks[0]) KiB for 8 MiB, \(peaks[1]) KiB for 96 MiB")
    }

    @Test("bad command lines and unknown targets: exit 2 or 4 with a message, nothing kept")
    func badInput() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let noTarget = try fixture.share(["send", "--text", "x"])
        #expect(noTarget.status == 2)
        #expect(noTarget.stderr.contains("--to"))
        let missing = try fixture.share(["send", fixture.home.file("nope.txt"), "--to", "thread:t1"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("nope.txt"))
        let unknown = try fixture.share(["send", "--text", "x", "--to", "thread:t999"])
        #expect(unknown.status == 4, "\(unknown.stderr)")
        #expect(try fixture.scanInbox().entries.isEmpty)
    }

    @Test(
        "share debug get with several paths: one answer per line in order; a refused path means exit 1, the rest answered"
    )
    func debugGetSeveralPaths() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let sent = try fixture.share(["send", "--text", "listed", "--to", "thread:t1", "--json"])
        #expect(sent.status == 0, "\(sent.stderr)")
        let result = try fixture.share([
            "debug", "get", "/api/v1/threads/t1/messages", "/api/v1/threads/t404/messages", "/api/v1/instance/limits",
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("GET /api/v1/threads/t404/messages answered 404"))
        let lines = result.stdout.split(separator: "\n").map {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:]
        }
        #expect(lines.count == 3)
        let messages = lines.first?["messages"] as? [[String: Any]]
        #expect(
            messages?.map { $0["client_msg_id"] as? String } == [ShareCLIFixture.json(sent)["client_msg_id"] as? String]
        )
        #expect(lines.count == 3 && lines[1]["status"] as? Int == 404)
        #expect(lines.last?["upload_part_size"] != nil)
        let ok = try fixture.share(["debug", "get", "/api/v1/instance/limits", "/api/v1/spaces"])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stdout.split(separator: "\n").count == 2)
    }

    @Test("SHAREKIT_VERBOSE=1 makes share send say each step on stderr, as --verbose does; stdout stays the result")
    func verboseByEnvironment() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let environment = fixture.sandbox.environment.merging(["SHAREKIT_VERBOSE": "1"]) { $1 }
        let result = try runProcess(
            BuiltProducts.path("share"), ["send", "--text", "steps", "--to", "thread:t1", "--json"],
            environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("share send: "))
        #expect(ShareCLIFixture.json(result)["status"] as? String == "sent")
        // "0" explicitly: the test process itself may run with SHAREKIT_VERBOSE=1 (tools/test).
        let quiet = try runProcess(
            BuiltProducts.path("share"), ["send", "--text", "quiet", "--to", "thread:t1", "--json"],
            environment: fixture.sandbox.environment.merging(["SHAREKIT_VERBOSE": "0"]) { $1 })
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
    }

    @Test(
        "SHAREKIT_HTTP_STALL_SECONDS: a server that went silent mid-send is given up on at that limit, the share kept")
    func stallLimit() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        // The instance limits and the child session are known; then every
        // request goes to a proxy that accepts and never answers.
        let warm = try fixture.share(["send", "--text", "warm up", "--to", "thread:t1"])
        #expect(warm.status == 0, "\(warm.stderr)")
        let silent = try SilentServer()
        defer { silent.stop() }
        let environment = fixture.sandbox.environment.merging([
            "http_proxy": silent.origin, "SHAREKIT_HTTP_STALL_SECONDS": "1",
        ]) { $1 }
        let started = ContinuousClock.now
        let result = try runProcess(
            BuiltProducts.path("share"),
            ["send", "--text", "into the silence", "--to", "thread:t1", "--json", "--verbose"],
            environment: environment)
        let waited = ContinuousClock.now - started
        #expect(result.status == 3, "\(result.stdout) \(result.stderr)")
        #expect(ShareCLIFixture.json(result)["status"] as? String == "queued")
        // Without the limit one attempt at the message alone would wait
        // 30 s; with it the whole send, retries included (about 8 s here),
        // gives up well before.
        #expect(waited < .seconds(20), "share send waited \(waited)")
        let entry = try #require(try fixture.scanInbox().entries.first)
        // The kept reason is in a person's words; the transport's are in the --verbose steps.
        #expect(entry.manifest.lastError == "the server took too long to answer", "\(entry.manifest.lastError ?? "")")
        #expect(result.stderr.contains("stalled"), "\(result.stderr)")
    }
}

/// The demo seed's shape as a seed file, for tests that change its limits.
enum DemoLikeSeed {
    static var value: [String: Any] {
        [
            "users": [["username": "alex", "password": "alex-demo-pass"]],
            "spaces": [
                [
                    "id": "s1", "name": "server",
                    "channels": [
                        ["id": "c1", "name": "Gateway", "kind": "chat", "readers": ["alex"], "writers": ["alex"]]
                    ],
                ]
            ],
            "threads": [["id": "t1", "channel_id": "c1", "title": "resume the gateway"]],
        ]
    }
}
