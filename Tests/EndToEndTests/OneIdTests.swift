import Foundation
import ShareKitClientTestSupport
import ShareKitInboxInterface
import ShareKitSQLInterface
import ShareKitSQLiteStore
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// One id for a share's whole life: `share inbox list|show|retry|drop` find a
/// share by the id `share send` printed, or a unique prefix of it, whether it
/// waits in the share inbox or in share-daemon's outbox.
@Suite("share inbox, one id across the inbox and the daemon's outbox")
struct OneIdTests {
    /// Gives Alex write permission on c1 back, as an administrator would
    /// after the person asked: the cause of a refusal is fixed.
    static func grantWrite(_ fixture: ShareCLIFixture) throws {
        let database = try SQLiteDatabase(path: fixture.server.databasePath)
        _ = try database.execute(
            "UPDATE channel_access SET can_write = 1 WHERE channel_id = 'c1' AND username = 'alex'", [])
    }

    /// The line of `share inbox list` that names the share `id` (by its short id, an end of it).
    static func line(naming id: String, in list: String) -> String? {
        list.split(separator: "\n").map(String.init).first { line in
            guard let first = line.split(separator: " ").first, first.count >= 6 else { return false }
            return id.hasSuffix(first)
        }
    }

    @Test("a share refused in the daemon's outbox: listed with where it is, shown, retried after the fix, delivered")
    func refusedShareRetried() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let id = try #require(try fixture.queueShares(1).first)
        let short = String(id.prefix(13))
        let inInbox = try fixture.share(["inbox", "show", short])
        #expect(inInbox.status == 0, "\(inInbox.stderr)")
        #expect(inInbox.stdout.contains("where:         the share inbox, waiting"), "\(inInbox.stdout)")

        let revoke = try fixture.server.admin(["revoke-write", "--user", "alex", "--channel", "c1"])
        #expect(revoke.status == 0, "\(revoke.stderr)")
        let pass = try fixture.daemon(["--once"])
        #expect(pass.stderr.contains("refused"), "\(pass.stderr)")
        #expect(try fixture.scanInbox().entries.isEmpty, "the daemon took the share over")

        let list = try fixture.share(["inbox", "list"])
        #expect(list.status == 0)
        #expect(Self.line(naming: id, in: list.stdout)?.contains("refused by the server, not sent: ") == true)
        #expect(list.stdout.contains("in share-daemon's outbox"), "\(list.stdout)")
        let listJSON = ShareCLIFixture.json(try fixture.share(["inbox", "list", "--json"]))
        let outbox = listJSON["outbox"] as? [[String: Any]] ?? []
        #expect(outbox.first?["id"] as? String == id)
        #expect(outbox.first?["state"] as? String == "failed")

        let show = try fixture.share(["inbox", "show", short])
        #expect(show.status == 0, "no entry after the takeover: \(show.stderr)")
        #expect(show.stdout.contains("client_msg_id: \(id)"), "\(show.stdout)")
        #expect(show.stdout.contains("share-daemon's outbox, refused by the server"), "\(show.stdout)")

        try Self.grantWrite(fixture)
        let retry = try fixture.share(["inbox", "retry", short])
        #expect(retry.status == 0, "\(retry.stderr)")
        #expect(retry.stdout.contains("\(id.suffix(6)): due now; share-daemon is not running"), "\(retry.stdout)")
        let again = try fixture.daemon(["--once"])
        #expect(again.stderr.contains("sent"), "\(again.stderr)")
        #expect(try await fixture.deliveries() == [id: 1])
        let after = try fixture.share(["inbox", "list"])
        #expect(Self.line(naming: id, in: after.stdout) == nil, "\(after.stdout)")
    }

    @Test("a refused share can be dropped by a prefix; it is gone from the list and the outbox")
    func refusedShareDropped() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let id = try #require(try fixture.queueShares(1).first)
        #expect(try fixture.server.admin(["revoke-write", "--user", "alex", "--channel", "c1"]).status == 0)
        _ = try fixture.daemon(["--once"])
        let listed = Self.line(naming: id, in: try fixture.share(["inbox", "list"]).stdout)
        #expect(listed?.contains("refused by the server") == true, "\(listed ?? "not listed")")
        let drop = try fixture.share(["inbox", "drop", String(id.prefix(20))])
        #expect(drop.status == 0, "\(drop.stderr)")
        let short = try #require(drop.stdout.split(separator: " ").last.map { String($0.dropLast()) })
        #expect(drop.stdout == "dropped \(short)\n" && short.count >= 6 && id.hasSuffix(short), "\(drop.stdout)")
        let list = try fixture.share(["inbox", "list"])
        #expect(Self.line(naming: id, in: list.stdout) == nil, "\(list.stdout)")
        #expect(try fixture.share(["inbox", "show", id]).status == 1)
    }

    @Test("prefixes: fewer than 6 characters is a usage error; one several ids begin with is refused, naming them")
    func prefixes() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let ids = try fixture.queueShares(2)
        let tooShort = try fixture.share(["inbox", "show", String(ids[0].prefix(3))])
        #expect(tooShort.status == 2)
        #expect(tooShort.stderr.contains("at least 6 characters"), "\(tooShort.stderr)")
        // Two UUIDv7s made within the same few seconds share their first characters.
        let common = zip(ids[0], ids[1]).prefix { $0 == $1 }.count
        try #require(common >= 6)
        let ambiguous = try fixture.share(["inbox", "drop", String(ids[0].prefix(6))])
        #expect(ambiguous.status == 2)
        // Each is named by the short id a person can type.
        #expect(
            ambiguous.stderr.contains("\n  \(ids[0].suffix(6))")
                && ambiguous.stderr.contains("\n  \(ids[1].suffix(6))"),
            "\(ambiguous.stderr)")
        #expect(try fixture.scanInbox().entries.count == 2, "nothing was dropped")
        let unique = try fixture.share(["inbox", "drop", String(ids[1].prefix(common + 1))])
        #expect(unique.status == 0, "\(unique.stderr)")
        #expect(try fixture.scanInbox().entries.map(\.id) == [ids[0]])
        #expect(try fixture.share(["inbox", "show", "ffffffff"]).status == 1)
    }
}
