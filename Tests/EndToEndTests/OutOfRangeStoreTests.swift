import Foundation
import Glibc
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitCore
import ShareKitInbox
import ShareKitInboxInterface
import ShareKitSQLInterface
import ShareKitSQLiteStore
import ShareKitSharedStateInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// Numbers in the share inbox and the daemon's outbox that no ShareKit
/// writes (`attempts` of 2^63 - 1, negative sizes, times before 1970 or
/// after 9999): any process of the user can write the inbox, and an older
/// version could have stored such a number in the outbox. `share-daemon`
/// must quarantine the record with its reason and go on, never trap on
/// every start.
@Suite("share-daemon: out-of-range inbox entries and outbox records", .serialized)
struct OutOfRangeStoreTests {
    /// Writes an entry folder by hand, as any process of the user could:
    /// a valid manifest with `change` applied to its JSON object, and its files.
    @discardableResult
    static func writeEntry(
        _ fixture: ShareCLIFixture, files: [String: [UInt8]] = [:], change: (inout [String: Any]) -> Void
    ) throws -> String {
        let id = UUIDv7().description
        let folder = fixture.sandbox.assembly.container.inboxPath + "/" + id
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var attachments: [InboxAttachment] = []
        for (name, bytes) in files.sorted(by: { $0.key < $1.key }) {
            try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + name))
            chmod(folder + "/" + name, 0o600)
            attachments.append(
                InboxAttachment(file: name, fileName: name, contentType: "text/plain", size: Int64(bytes.count)))
        }
        let manifest = InboxManifest(
            clientMsgID: id, serverOrigin: fixture.sandbox.origin,
            target: ShareTarget(kind: .thread, id: "t1", displayPath: "Gateway > t1"), comment: "hand-written",
            createdAt: "2026-12-01T03:00:00Z", attachments: attachments, attempts: 1)
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(try InboxManifestCodec.encode(manifest))) as? [String: Any])
        change(&object)
        let path = folder + "/manifest.json"
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        return id
    }

    @Test("an inbox entry with attempts = Int64.max, and other numbers out of range, is quarantined with its reason")
    func outOfRangeInboxEntries() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        var expected: [String: String] = [:]
        expected[try Self.writeEntry(fixture) { $0["attempts"] = Int64.max }] = "attempts"
        expected[try Self.writeEntry(fixture) { $0["attempts"] = -1 }] = "attempts"
        expected[try Self.writeEntry(fixture) { $0["format_version"] = Int64.max }] = "newer ShareKit"
        expected[try Self.writeEntry(fixture) { $0["created_at"] = "0000-01-01T00:00:00Z" }] = "created_at"
        expected[
            try Self.writeEntry(fixture, files: ["a.txt": Array("abc".utf8)]) {
                var attachments = $0["attachments"] as? [[String: Any]] ?? []
                attachments[0]["size"] = Int64.min
                $0["attachments"] = attachments
            }] = "attachments.0.size"
        let good = try fixture.queueShares(1)

        let pass = try fixture.daemon(["--once"])
        #expect(pass.status == 0, "share-daemon --once: \(pass.status)\n\(pass.stderr)")
        #expect(try await fixture.deliveries() == [good[0]: 1], "a good entry beside them is still sent")
        let quarantined = try fixture.scanInbox().quarantined
        for (id, field) in expected {
            let entry = quarantined.first { $0.id == id }
            #expect(entry?.reason.contains(field) == true, "\(id): \(entry?.reason ?? "not quarantined")")
        }
        let list = try fixture.share(["inbox", "list"])
        #expect(list.status == 0, "\(list.stderr)")
        for (id, field) in expected {
            let line = Self.line(naming: id, in: list.stdout)
            #expect(line?.contains("quarantined") == true && line?.contains(field) == true, "\(list.stdout)")
        }
        // And again: nothing of them is left to trap a later start.
        let again = try fixture.daemon(["--once"])
        #expect(again.status == 0, "\(again.stderr)")
    }

    @Test("an outbox record with attempts = Int64.max, or times and sizes out of range, is refused with its reason")
    func outOfRangeOutboxRecords() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        // The daemon's outbox as an older version left it: items taken over, then numbers no ShareKit writes.
        let ids = try fixture.queueShares(5, withFiles: true)
        let first = try fixture.daemon(["--once"])
        #expect(first.status == 0, "\(first.stderr)")
        let delivered = try await fixture.deliveries()
        #expect(delivered.count == ids.count)
        let database = try SQLiteDatabase(path: fixture.sandbox.assembly.daemonStateDirectory + "/outbox.db")
        defer { try? database.close() }
        let sql: [(String, [SQLValue])] = [
            ("UPDATE outbox SET state = 'pending', attempts = ? WHERE client_msg_id = ?", [.integer(Int64.max)]),
            ("UPDATE outbox SET state = 'pending', next_attempt_at = ? WHERE client_msg_id = ?", [.integer(Int64.min)]),
            ("UPDATE outbox SET state = 'pending', created_at = ? WHERE client_msg_id = ?", [.integer(Int64.min)]),
            (
                "UPDATE outbox SET state = 'pending', attachments = json_set(attachments, '$[0].size', -1) "
                    + "WHERE client_msg_id = ?", []
            ),
            (
                "UPDATE outbox SET state = 'pending', attachments = json_set(attachments, '$[0].stored_path', "
                    + "'/etc/passwd') WHERE client_msg_id = ?", []
            ),
        ]
        for (index, (statement, values)) in sql.enumerated() {
            try database.execute(statement, values + [.text(ids[index])])
        }
        let fields = ["attempts", "next_attempt_at", "created_at", "size", "stored_path"]

        let pass = try fixture.daemon(["--once"])
        #expect(pass.status == 0, "share-daemon --once: \(pass.status)\n\(pass.stderr)")
        let list = try fixture.share(["inbox", "list"])
        #expect(list.status == 0, "\(list.stderr)")
        for (index, id) in ids.enumerated() {
            let line = Self.line(naming: id, in: list.stdout)
            #expect(line?.contains(fields[index]) == true, "\(id): \(list.stdout)")
        }
        #expect(try await fixture.deliveries() == delivered, "no record out of range was sent again")
        let again = try fixture.daemon(["--once"])
        #expect(again.status == 0, "\(again.stderr)")
    }

    /// The line of `share inbox list` that names the share `id`: it begins
    /// with the share's short id, an end of the id of at least 6 characters.
    static func line(naming id: String, in listing: String) -> Substring? {
        listing.split(separator: "\n").first { line in
            let word = line.prefix { $0 != " " && $0 != "\t" }
            return word.count >= 6 && id.hasSuffix(word)
        }
    }
}
