import Foundation
import ShareKitClientTestSupport
import ShareKitInboxInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// The smaller everyday things: sizes a person reads, the right refusal
/// code, a malformed target as a usage error, JSON a person can read, the
/// daemon's log form.
@Suite("everyday details")
struct SmallerThingsTests {
    @Test("a file over the limit: the refusal gives human units beside the bytes")
    func humanSizes() async throws {
        var seed = DemoLikeSeed.value
        seed["limits"] = ["file_max_upload_bytes": 4096, "message_max_attachments": 3, "upload_part_size": 4096]
        let fixture = try await ShareCLIFixture(seed: seed)
        defer { fixture.close() }
        let path = fixture.home.file("big.txt")
        try Data(repeating: UInt8(ascii: "a"), count: 5000).write(to: URL(fileURLWithPath: path))
        let result = try fixture.share(["send", path, "--to", "thread:t1"])
        #expect(result.status == 4)
        #expect(
            result.stderr.contains("4.9 KiB (5000 bytes) is over the server's limit of 4 KiB (4096 bytes"),
            "\(result.stderr)")
    }

    @Test("no write permission: --json says write_forbidden, not unknown_target")
    func writeForbiddenCode() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        #expect(try fixture.server.admin(["revoke-write", "--user", "alex", "--channel", "c1"]).status == 0)
        let result = try fixture.share(["send", "--text", "x", "--to", "thread:t1", "--json"])
        #expect(result.status == 4, "\(result.stdout) \(result.stderr)")
        #expect(ShareCLIFixture.json(result)["code"] as? String == "write_forbidden", "\(result.stdout)")
    }

    @Test("a malformed target (thred:t3) is a usage error with the accepted forms; nothing is asked of the server")
    func malformedTarget() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let result = try fixture.share(["send", "--text", "x", "--to", "thred:t3"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("thread:ID, channel:ID, new-post:CHANNEL_ID"), "\(result.stderr)")
        #expect(result.stderr.contains("did you mean 'thread:t3'?"), "\(result.stderr)")
        #expect(try fixture.scanInbox().entries.isEmpty)
    }

    @Test("--json output has no escaped slashes (share and share-server routes)")
    func jsonSlashes() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        _ = try fixture.queueShares(1)
        let list = try fixture.share(["inbox", "list", "--json"])
        #expect(list.stdout.contains("\"server_origin\":\"http://"), "\(list.stdout)")
        #expect(!list.stdout.contains("\\/"))
        let routes = try runProcess(BuiltProducts.path("share-server"), ["routes", "--json"])
        #expect(routes.stdout.contains("\"/api/v1/"), "\(routes.stdout.prefix(200))")
        #expect(!routes.stdout.contains("\\/"))
    }

    /// Runs `share-daemon --once` with stderr into a file, and the environment's `JOURNAL_STREAM` as asked.
    static func daemonLog(_ fixture: ShareCLIFixture, journalStreamOfFile: Bool) throws -> String {
        let path = fixture.home.file("daemon-\(journalStreamOfFile).log")
        FileManager.default.createFile(atPath: path, contents: nil)
        var environment = fixture.sandbox.environment
        if journalStreamOfFile {
            var info = stat()
            guard stat(path, &info) == 0 else { throw FixtureError("cannot stat \(path)") }
            environment["JOURNAL_STREAM"] = "\(info.st_dev):\(info.st_ino)"
        } else {
            // Another stream than stderr: the journal is not where the lines go.
            environment["JOURNAL_STREAM"] = "1:1"
        }
        // Reaped with wait4 (SpawnedChild), never Foundation's waitUntilExit,
        // which can wait forever for an exit monitor on busy dispatch threads.
        let daemon = try SpawnedChild(
            BuiltProducts.path("share-daemon"), ["--once"], environment: environment, mergeErrors: false,
            errorFile: path)
        close(daemon.input)
        _ = readToEnd([daemon.output])
        _ = daemon.wait()
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test("share-daemon writes <6> prefixes only when its stderr is the journal (JOURNAL_STREAM), plain lines else")
    func journalPrefixes() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let plain = try Self.daemonLog(fixture, journalStreamOfFile: false)
        #expect(plain.contains("daemon: "), "\(plain)")
        #expect(!plain.contains("<6>") && !plain.contains("<3>") && !plain.contains("<4>"), "\(plain)")
        let journal = try Self.daemonLog(fixture, journalStreamOfFile: true)
        let lines = journal.split(separator: "\n")
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { $0.hasPrefix("<") }, "\(journal)")
    }
}
