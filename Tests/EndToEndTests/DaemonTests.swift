import Foundation
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitCore
import ShareKitDaemonControl
import ShareKitDaemonControlInterface
import ShareKitHTTPInterface
import ShareKitInboxInterface
import ShareKitOutboxInterface
import ShareKitSQLInterface
import ShareKitSQLiteStore
import ShareKitSessions
import ShareKitSessionsInterface
import ShareKitSharedState
import ShareKitSharedStateInterface
import ShareKitSystemTesting
import ShareKitTargetStore
import ShareKitTargetStoreInterface
import ShareKitTestSupport
import Testing

extension ShareCLIFixture {
    /// Runs `share-daemon <arguments>` to the end (`--once`).
    func daemon(_ arguments: [String]) throws -> ProcessResult {
        try runProcess(BuiltProducts.path("share-daemon"), arguments, environment: sandbox.environment)
    }

    /// Starts a foreground `share-daemon` and waits for its ready line; its log is readable line by line.
    func startDaemon(_ arguments: [String] = ["--interval", "0.2", "--verbose"]) throws -> HelperProcess {
        let process = try HelperProcess(
            executable: BuiltProducts.path("share-daemon"), arguments, environment: sandbox.environment,
            mergeErrors: true)
        return process
    }

    /// The messages of thread t1 counted by client_msg_id.
    func deliveries(thread: String = "t1") async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for message in try await messages(thread: thread) {
            if let id = message["client_msg_id"] as? String { counts[id, default: 0] += 1 }
        }
        return counts
    }

    /// The recent targets in the shared state.
    func recentTargets() throws -> [ShareTarget] {
        try sandbox.assembly.recentTargets(of: SignedInAccount(origin: sandbox.origin, username: "alex")).list().targets
    }

    /// Queues `count` text shares (with a small file each when `withFiles`) and returns their client_msg_ids.
    func queueShares(_ count: Int, withFiles: Bool = false) throws -> [String] {
        var ids: [String] = []
        for index in 0..<count {
            var arguments = ["send", "--text", "queued \(index)", "--to", "thread:t1", "--queue", "--json"]
            if withFiles {
                let path = home.file("note-\(index).txt")
                try Data("note number \(index)\n".utf8).write(to: URL(fileURLWithPath: path))
                arguments.insert(path, at: 1)
            }
            let result = try share(arguments)
            guard result.status == 0, let id = Self.json(result)["client_msg_id"] as? String else {
                throw FixtureError("share send --queue failed: \(result.stdout) \(result.stderr)")
            }
            ids.append(id)
        }
        return ids
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// share-daemon end to end: real processes, real SIGKILL, the server's messages over HTTP.
@Suite("share-daemon, end to end")
struct DaemonTests {
    @Test("offline share -> inbox -> server back -> daemon: delivered exactly once with the CLI's client_msg_id")
    func offlineShareDeliveredByDaemon() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let png = fixture.home.file("dot.png")
        try SampleFiles.write(SampleFiles.png, to: png)
        _ = fixture.sandbox.stopServer()
        let result = try fixture.share(["send", png, "--comment", "while offline", "--to", "thread:t1", "--json"])
        #expect(result.status == 3, "\(result.stdout) \(result.stderr)")
        let id = try #require(ShareCLIFixture.json(result)["client_msg_id"] as? String)
        #expect(try fixture.scanInbox().entries.map(\.id) == [id])

        try fixture.sandbox.restartServer()
        let pass = try fixture.daemon(["--once"])
        #expect(pass.status == 0, "\(pass.stderr)")
        #expect(try await fixture.deliveries() == [id: 1])
        #expect(try fixture.scanInbox().entries.isEmpty)
        #expect(try fixture.recentTargets().first?.id == "t1")
        let sent = try #require(try await fixture.messages(thread: "t1").first)
        #expect((sent["attachments"] as? [[String: Any]])?.first?["content_type"] as? String == "image/png")

        let again = try fixture.daemon(["--once"])
        #expect(again.status == 0)
        #expect(try await fixture.deliveries() == [id: 1])
    }

    @Test("--retry-now: a send waiting on a long backoff goes at once when the server is back, exactly once")
    func retryNow() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let queued = try fixture.queueShares(1)
        _ = fixture.sandbox.stopServer()
        _ = try fixture.daemon(["--once"])  // takes the entry over; the send fails
        // What many failed attempts leave: the next attempt an hour away.
        let database = try SQLiteDatabase(path: fixture.sandbox.assembly.container.rootPath + "/daemon/outbox.db")
        let changed = try database.execute(
            "UPDATE outbox SET next_attempt_at = next_attempt_at + 3600000 WHERE state = 'pending'", []
        ).changes
        try database.close()
        #expect(changed == 1, "the send waits in the outbox")

        try fixture.sandbox.restartServer()
        let waiting = try fixture.daemon(["--once"])
        #expect(waiting.status == 0, "\(waiting.stderr)")
        #expect(try await fixture.deliveries().isEmpty, "not due for an hour")
        let now = try fixture.daemon(["--once", "--retry-now"])
        #expect(now.status == 0, "\(now.stderr)")
        #expect(now.stderr.contains("retry now: 1 waiting send(s) due at once"), "\(now.stderr)")
        #expect(try await fixture.deliveries() == [queued[0]: 1])
    }

    @Test("two daemons by mistake, at the same time: every share still exactly once")
    func twoDaemonsAtOnce() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let ids = try fixture.queueShares(6, withFiles: true)
        let first = try HelperProcess(
            executable: BuiltProducts.path("share-daemon"), ["--once"], environment: fixture.sandbox.environment)
        let second = try HelperProcess(
            executable: BuiltProducts.path("share-daemon"), ["--once"], environment: fixture.sandbox.environment)
        let outcomes = [first.finish(), second.finish()]
        for outcome in outcomes { #expect(outcome.status == 0, "\(outcome.stderr)") }
        // A share one daemon claimed may be left for its lease by the other: a last pass finishes.
        #expect(try fixture.daemon(["--once"]).status == 0)
        let counts = try await fixture.deliveries()
        #expect(counts == Dictionary(uniqueKeysWithValues: ids.map { ($0, 1) }))
        #expect(try fixture.scanInbox().entries.isEmpty)
    }

    @Test("SIGKILL of the daemon at random points of takeover and sending, repeated: every share exactly once")
    func killedDaemonNeverDuplicates() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        var ids = try fixture.queueShares(4, withFiles: true)
        var generator = SystemRandomNumberGenerator()
        for round in 0..<6 {
            ids += try fixture.queueShares(1 + round % 2, withFiles: round % 2 == 0)
            let daemon = try fixture.startDaemon()
            // Kill after a random number of log lines: during takeover, between
            // claim and upload, between upload and message, after a send.
            let lines = Int.random(in: 1...8, using: &generator)
            var seen = 0
            while seen < lines, let line = daemon.readLine() {
                if line != "share-daemon: ready" { seen += 1 }
            }
            daemon.kill(SIGKILL)
            _ = daemon.finish()
            let scan = try fixture.scanInbox()
            #expect(scan.quarantined.isEmpty, "round \(round): \(scan.quarantined)")
        }
        // Claims of killed daemons last their lease; a daemon after that finishes the rest.
        let last = try fixture.daemon(["--once", "--lease", "0"])
        #expect(last.status == 0, "\(last.stderr)")
        let counts = try await fixture.deliveries()
        #expect(counts == Dictionary(uniqueKeysWithValues: ids.map { ($0, 1) }), "\(counts)")
        #expect(try fixture.scanInbox().entries.isEmpty)
    }

    @Test("a daemon killed between a takeover and removing the CLI's upload record: the next daemon removes it")
    func uploadRecordOfKilledTakeoverRemoved() async throws {
        let fixture = try await ShareCLIFixture(seed: SendInterruptTests.slowUploadSeed)
        defer { fixture.close() }
        let assembly = fixture.sandbox.assembly
        let records = assembly.container.rootPath + "/uploads"
        func recordNames() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: records)) ?? []).filter {
                $0.hasPrefix("upload-") && $0.hasSuffix(".json")
            }
        }
        // A send killed in the middle of its upload: the share waits in the
        // inbox, and the record to resume it names the inbox's copy.
        let path = try fixture.sandbox.writeFile("big.bin", size: 64 * 1024 * 1024)
        let send = try fixture.start(["send", path, "--to", "thread:t1", "--progress", "lines"])
        // Bytes acknowledged: createUpload answered, so the record is written.
        let progress = send.waitForLine { $0.hasPrefix("progress big.bin ") && !$0.contains(" 0/") }
        send.kill(SIGKILL)
        _ = send.finish()
        try #require(progress != nil, "no progress line with bytes acknowledged before the kill")
        try #require(try fixture.scanInbox().entries.count == 1)
        try #require(recordNames().count == 1)
        // What a daemon SIGKILLed right after its takeover leaves: the entry
        // is in the outbox, its files moved, the record of the old path kept.
        let outbox = try assembly.outbox(stateDirectory: assembly.daemonStateDirectory)
        let inbox = assembly.shareInbox()
        #expect(try assembly.inboxTakeover(inbox: inbox, outbox: outbox).run().takenOver.count == 1)
        inbox.waitForRemovals()
        #expect(recordNames().count == 1)

        let pass = try fixture.daemon(["--once", "--lease", "0"])
        #expect(pass.status == 0, "\(pass.stderr)")
        #expect(recordNames().isEmpty, "the record of a file the takeover moved away outlived the next daemon")
        #expect(try await fixture.deliveries().values.sorted() == [1])
    }

    @Test("access.changed removes the target from the recent targets while the daemon runs")
    func accessChangedRemovesRecent() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        #expect(try fixture.share(["send", "--text", "one", "--to", "thread:t1"]).status == 0)
        #expect(try fixture.share(["send", "--text", "two", "--to", "new-post:c2", "--new-post", "Idea"]).status == 0)
        #expect(try fixture.recentTargets().map(\.id) == ["c2", "t1"])
        // Replay the feed from its start: a first poll without a cursor starts
        // at the latest event, so one that reached the server after the
        // revocation below (a loaded machine) would skip it and wait forever.
        let daemonDirectory = fixture.sandbox.assembly.container.rootPath + "/daemon"
        try FileManager.default.createDirectory(
            atPath: daemonDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try "0".write(toFile: daemonDirectory + "/events.cursor", atomically: true, encoding: .utf8)
        let daemon = try fixture.startDaemon()
        defer {
            daemon.kill(SIGTERM)
            _ = daemon.finish()
        }
        #expect(daemon.waitForLine { $0.contains("share-daemon: ready") } != nil)
        let revoke = try fixture.server.admin(["revoke-write", "--user", "alex", "--channel", "c1"])
        #expect(revoke.status == 0, "\(revoke.stderr)")
        let line = daemon.waitForLine { $0.contains("targets: access changed") }
        #expect(line?.contains("t1") == true || line?.contains("c1") == true, "\(line ?? "no line")")
        #expect(try fixture.recentTargets().map(\.id) == ["c2"])
    }

    @Test("the daemon refreshes its parent while several share processes refresh the child: no reuse")
    func parallelRefreshesOfBothFamilies() async throws {
        var seed = DemoLikeSeed.value
        // Shorter than the refresh leeway: every use of either family refreshes it.
        seed["tokens"] = ["access_ttl_seconds": 20, "refresh_ttl_seconds": 3600]
        let fixture = try await ShareCLIFixture(seed: seed)
        defer { fixture.close() }
        for round in 0..<3 {
            let daemon = try HelperProcess(
                executable: BuiltProducts.path("share-daemon"), ["--once"], environment: fixture.sandbox.environment)
            let senders = try (0..<4).map { index in
                try fixture.start(["send", "--text", "round \(round) sender \(index)", "--to", "thread:t1"])
            }
            for sender in senders {
                let outcome = sender.finish()
                #expect(outcome.status == 0, "\(outcome.stdout) \(outcome.stderr)")
            }
            let outcome = daemon.finish()
            #expect(outcome.status == 0, "\(outcome.stderr)")
        }
        #expect(try await fixture.messages(thread: "t1").count == 12)
        let token = try await fixture.sandbox.connection.provider(.parent).currentAccessToken()
        let response = try await fixture.sandbox.connection.signed.send(
            HTTPClientRequest(method: .get, url: fixture.sandbox.origin + "/api/v1/audit?kind=refresh_reuse"),
            accessToken: token.plainText)
        #expect(response.status == 200)
        let audit = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
        #expect((audit?["items"] as? [Any])?.isEmpty == true, "\(String(decoding: response.body, as: UTF8.self))")
        #expect(try fixture.sandbox.connection.storage.read(.child) != nil)
    }

    @Test("a refusal is kept as failed with its reason, visible in share status and share inbox list")
    func refusalVisible() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let ids = try fixture.queueShares(1)
        let revoke = try fixture.server.admin(["revoke-write", "--user", "alex", "--channel", "c1"])
        #expect(revoke.status == 0, "\(revoke.stderr)")
        let daemon = try fixture.startDaemon()
        defer {
            daemon.kill(SIGTERM)
            _ = daemon.finish()
        }
        let refused = daemon.waitForLine { $0.contains("outbox: ") && $0.contains("refused") }
        #expect(refused?.contains(ids[0]) == true, "\(refused ?? "no line")")
        let status = try fixture.share(["status"])
        #expect(status.stdout.contains("failed: \(ids[0].suffix(6))"), "\(status.stdout)")
        #expect(status.stdout.contains("write"), "\(status.stdout)")
        let list = try fixture.share(["inbox", "list"])
        #expect(list.stdout.contains("\(ids[0].suffix(6))  refused by the server"), "\(list.stdout)")
        let json = ShareCLIFixture.json(try fixture.share(["inbox", "list", "--json"]))
        let failed = ((json["daemon_outbox"] as? [String: Any])?["failed"] as? [[String: Any]]) ?? []
        #expect(failed.first?["client_msg_id"] as? String == ids[0])
    }

    @Test("share send --queue wakes a running daemon at once; SIGTERM stops it gracefully")
    func queueWakesDaemonAndSigtermStops() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        // An interval far beyond the test: only the wake-up can make the pass.
        let daemon = try fixture.startDaemon(["--interval", "3600"])
        #expect(daemon.waitForLine { $0.contains("share-daemon: ready") } != nil)
        let ids = try fixture.queueShares(1)
        let sent = daemon.waitForLine { $0.contains("outbox: sent") }
        #expect(sent?.contains(ids[0]) == true, "\(sent ?? "no line")")
        #expect(try await fixture.deliveries() == [ids[0]: 1])
        let socket = fixture.sandbox.assembly.container.rootPath + "/run/daemon.sock"
        var info = stat()
        #expect(lstat(socket, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600, "the control socket is \(String(info.st_mode & 0o777, radix: 8))")
        daemon.kill(SIGTERM)
        let outcome = daemon.finish()
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("daemon: stopped"))
        #expect(!FileManager.default.fileExists(atPath: socket), "the control socket outlived the daemon")
    }

    @Test("every control request and answer round-trips through the real daemon's socket, typed and in plain words")
    func controlSocketRoundTrip() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let daemon = try fixture.startDaemon(["--interval", "3600"])
        defer {
            daemon.kill(SIGTERM)
            _ = daemon.finish()
        }
        #expect(daemon.waitForLine { $0.contains("share-daemon: ready") } != nil)
        let path = fixture.sandbox.assembly.daemonSocketPath

        let status = try UnixDaemonControl(path: path).status().get()
        #expect(status.pid == Int(daemon.pid))
        #expect(status.server == fixture.sandbox.origin)
        #expect(status.loggedIn == true)
        #expect(status.outbox == DaemonStatusReport.OutboxCounts(pending: 0, sending: 0, sent: 0, failed: 0))
        #expect(status.failed == [] && status.quarantined == [])
        for request in [DaemonRequest.wake, .retry] {
            let answer = UnixDaemonControl(path: path).send(request, expecting: DaemonAcknowledgement.self)
            #expect(answer == .success(DaemonAcknowledgement()), "\(request)")
        }
        // A status asked for as an acknowledgement does not decode: answers are checked against the request.
        let mismatched = UnixDaemonControl(path: path).send(.status, expecting: DaemonAcknowledgement.self)
        #expect(mismatched == .failure(.unreadable("`ok` is missing")))

        // The wire itself: one JSON line each way, and the previous version's plain words still work.
        #expect(try Self.exchange(DaemonRequest.wake.line, path: path) == #"{"ok":true}"#)
        #expect(try Self.exchange(DaemonRequest.retry.line, path: path) == #"{"ok":true}"#)
        #expect(try Self.exchange(#"{"request":"explode"}"#, path: path) == #"{"error":"unknown request"}"#)
        #expect(try Self.exchange("{not json", path: path) == #"{"error":"unknown request"}"#)
        #expect(try Self.exchange("wake", path: path) == "ok")
        #expect(try Self.exchange("retry", path: path) == "ok")
        #expect(try Self.exchange("explode", path: path) == "unknown request")
        let typed = try Self.exchange(DaemonRequest.status.line, path: path)
        let plain = try Self.exchange("status", path: path)
        for line in [typed, plain] {
            let decoded = try JSONDecoder().decode(DaemonStatusReport.self, from: Data(line.utf8))
            #expect(decoded.pid == status.pid && decoded.server == status.server, "\(line)")
        }
        #expect(daemon.waitForLine { $0.contains("retry now") } != nil, "retry did not reach the outbox")
    }

    /// Writes one line on the control socket and returns the answer line (without its newline).
    static func exchange(_ line: String, path: String) throws -> String {
        guard let fd = UnixDaemonControl.connect(to: path) else { throw FixtureError("nobody listens on \(path)") }
        defer { close(fd) }
        let request = Array((line + "\n").utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var answer: [UInt8] = []
        var byte: UInt8 = 0
        while read(fd, &byte, 1) == 1 { answer.append(byte) }
        guard answer.last == UInt8(ascii: "\n") else { throw FixtureError("the answer has no newline: \(answer)") }
        return String(decoding: answer.dropLast(), as: UTF8.self)
    }

    @Test("a second daemon on the same container refuses to start while the first runs")
    func secondDaemonRefused() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let first = try fixture.startDaemon(["--interval", "3600"])
        defer {
            first.kill(SIGTERM)
            _ = first.finish()
        }
        #expect(first.waitForLine { $0.contains("share-daemon: ready") } != nil)
        let second = try fixture.daemon(["--interval", "3600"])
        #expect(second.status == 1)
        #expect(second.stderr.contains("another share-daemon already listens"))
    }

    @Test("--once without a login: exit 1 and a message that says what to do")
    func onceWithoutLogin() async throws {
        let home = try TemporaryDirectory(prefix: "daemon-no-login")
        defer { home.remove() }
        let result = try runProcess(
            BuiltProducts.path("share-daemon"), ["--once"],
            environment: [
                "SHAREKIT_KEYCHAIN": "file", "SHAREKIT_KEYCHAIN_DIR": home.file("keychain"),
                "SHAREKIT_CONTAINER_DIR": home.file("container"),
            ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("share login"))
    }
}
