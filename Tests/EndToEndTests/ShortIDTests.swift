import Foundation
import ShareKitClientTestSupport
import ShareKitInboxInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// The ids of shares are UUIDv7s: their beginning is the time they were
/// made, so shares of one minute share their first eight characters. What
/// `share inbox list` shows, and `show`, `retry` and `drop` take, is a short
/// id from the random end of the id, unique among the shares shown.
@Suite("share inbox: short ids a person can type")
struct ShortIDTests {
    /// Queues `count` text shares at once (they are made within a second or so).
    static func queue(_ fixture: ShareCLIFixture, _ count: Int) throws -> [String] {
        try (0..<count).map { index in
            let result = try fixture.share([
                "send", "--text", "share \(index)", "--to", "thread:t1", "--queue", "--json",
            ])
            return try #require(ShareCLIFixture.json(result)["client_msg_id"] as? String)
        }
    }

    /// The longest beginning all `ids` have.
    static func commonPrefix(_ ids: [String]) -> String {
        guard var prefix = ids.first else { return "" }
        for id in ids.dropFirst() {
            while !id.hasPrefix(prefix) { prefix.removeLast() }
        }
        return prefix
    }

    /// The first word of each line of `share inbox list` that names a share.
    static func listedIDs(_ fixture: ShareCLIFixture) throws -> [String] {
        let list = try fixture.share(["inbox", "list"])
        #expect(list.status == 0, "\(list.stderr)")
        return list.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") }.compactMap {
            $0.split(separator: " ").first.map(String.init)
        }
    }

    @Test("share inbox list shows short ids from the random end; show, retry and drop take them")
    func shortIDsInTheList() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let ids = try Self.queue(fixture, 4)
        let shown = try Self.listedIDs(fixture)
        #expect(shown.count == 4, "\(shown)")
        #expect(Set(shown).count == 4, "each short id names one share: \(shown)")
        for short in shown {
            #expect(short.count >= 6 && short.count <= 12, "not short: \(short)")
            #expect(ids.filter { $0.hasSuffix(short) }.count == 1, "\(short) is not the end of exactly one id")
        }
        for (index, short) in shown.enumerated() {
            let show = try fixture.share(["inbox", "show", short])
            #expect(show.status == 0, "\(short): \(show.stderr)")
            #expect(show.stdout.contains(ids.first { $0.hasSuffix(short) } ?? "-"), "\(show.stdout)")
            if index == 0 {
                let drop = try fixture.share(["inbox", "drop", short])
                #expect(drop.status == 0, "\(drop.stderr)")
                #expect(drop.stdout.contains(short), "the line names the share by its short id: \(drop.stdout)")
            }
        }
        #expect(try fixture.scanInbox().entries.count == 3)

        // The full id and any unique prefix or suffix of six or more characters work too.
        let left = try fixture.scanInbox().entries.map(\.id)
        let kept = try #require(ids.first { left.contains($0) })
        for form in [kept, String(kept.prefix(30)), String(kept.suffix(7))] {
            let show = try fixture.share(["inbox", "show", form])
            #expect(show.status == 0, "\(form): \(show.stderr)")
        }
        let retry = try fixture.share(["inbox", "retry", String(kept.suffix(12)), "--json"])
        #expect(retry.status == 0, "\(retry.stdout) \(retry.stderr)")
        #expect(try await fixture.deliveries()[kept] == 1)
    }

    @Test("a prefix of shares made in the same minute is ambiguous: the answer lists their short ids")
    func timePrefixIsAmbiguous() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let ids = try Self.queue(fixture, 3)
        let shown = try Self.listedIDs(fixture)
        // Made within seconds: their first characters (the time) are the same.
        let prefix = Self.commonPrefix(ids)
        try #require(prefix.count >= 6, "\(ids)")
        let show = try fixture.share(["inbox", "show", prefix])
        #expect(show.status == 2, "\(show.stdout) \(show.stderr)")
        for short in shown { #expect(show.stderr.contains(short), "\(short) not offered: \(show.stderr)") }
        let tooShort = try fixture.share(["inbox", "show", String(shown[0].suffix(5))])
        #expect(tooShort.status == 2)
        #expect(tooShort.stderr.contains("6"), "\(tooShort.stderr)")
    }

    @Test("shares already sent do not make a waiting share's id ambiguous")
    func sentSharesDoNotCount() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        // Shares the daemon has sent stay in its outbox, but nobody waits for them.
        let sent = try Self.queue(fixture, 3)
        let pass = try fixture.daemon(["--once"])
        #expect(pass.status == 0, "\(pass.stderr)")
        #expect(try await fixture.deliveries().count == sent.count)
        let waiting = try Self.queue(fixture, 1)[0]
        let shown = try Self.listedIDs(fixture)
        #expect(shown.count == 1 && waiting.hasSuffix(shown[0]), "\(shown)")
        // A prefix all of them share names the one share that waits.
        let prefix = Self.commonPrefix(sent + [waiting])
        try #require(prefix.count >= 6, "\(sent) \(waiting)")
        let show = try fixture.share(["inbox", "show", prefix])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout.contains(waiting))
    }
}
