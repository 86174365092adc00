import BenchmarkSupport
import Foundation
import Glibc
import ShareKitCore
import ShareKitInbox
import ShareKitInboxInterface
import ShareKitOutbox
import ShareKitOutboxInterface
import ShareKitSQLInterface
import ShareKitSQLiteStore

/// Measures the takeover of share inbox entries into the outbox (the goals:
/// 1000 entries within 0.25 seconds, and within 6 times the time of renaming
/// 1000 plain folders) and the takeover plus sending as a
/// `share-daemon --once` process, each against references measured in the
/// same run: writing the entries, and renaming as many plain folders.
struct TakeoverBenchmark {
    /// The goal for 1000 entries (scaled to `--entries`).
    static let goalSeconds = 0.25
    /// The goal against renaming as many plain folders.
    static let goalRenameRatio = 6.0
    /// The demo seed's thread `t1` (Alex may write there).
    static let target = ShareTarget(kind: .thread, id: "t1", displayPath: "server > Gateway > resume the gateway")
    static let textPrefix = "takeover-benchmark"

    let options: Options

    func run() async throws {
        let directory = try RunDirectory.make(parent: options.temporaryParent, prefix: "takeover-benchmark")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let count = options.entries
        say(
            "\(count) inbox entries (small text shares\(options.attachment ? " with a 1 KiB text/plain file each" : ""))"
                + "; run directory \(directory)")

        // 1. The takeover alone, in this process, on the real modules.
        let renameSeconds = try Self.renameFolders(count, in: directory + "/rename")
        let local = FileShareInbox(directory: directory + "/local/container/inbox")
        let writeSeconds = try time { try writeEntries(count, into: local, origin: "http://127.0.0.1:9") }
        let database = try SQLiteDatabase(path: directory + "/local/state-outbox.db")
        let outbox = try SQLiteOutbox(database: database, directory: directory + "/local/state-outbox")
        var report = TakeoverReport()
        let cpuBefore = Clock.threadCPUNanoseconds()
        let takeoverSeconds = try time { report = try InboxTakeover(inbox: local, outbox: outbox).run() }
        let takeoverCPU = Double(Clock.threadCPUNanoseconds() - cpuBefore) / 1e9
        // The entries left the inbox during the takeover; their folders are
        // deleted in the background after it (FileShareInbox.markProcessed).
        let removalSeconds = try time { local.waitForRemovals() }
        let left = try local.scan()
        let queued = try outbox.counts().pending
        guard report.takenOver.count == count, report.failed.isEmpty, report.quarantined.isEmpty,
            left.entries.isEmpty, queued == count
        else {
            throw Spawn.Failure(
                description: "takeover: \(report.takenOver.count) taken over, \(report.failed.count) failed "
                    + "(\(report.failed.first?.reason ?? "-")), \(report.quarantined.count) quarantined, "
                    + "\(left.entries.count) left in the inbox, \(queued) pending in the outbox; expected \(count)")
        }
        say(
            String(
                format: "reference: writing %d entries with FileShareInbox (draft, manifest, commit): %.3f s", count,
                writeSeconds))
        say(String(format: "reference: renaming %d plain folders: %.3f s", count, renameSeconds))
        say(
            String(
                format:
                    "takeover: %d entries in %.3f s (%.0f entries/s; %.2fx the time to write them, %.0fx a plain rename)",
                count, takeoverSeconds, Double(count) / takeoverSeconds, takeoverSeconds / writeSeconds,
                takeoverSeconds / renameSeconds))
        say(
            String(
                format: "takeover CPU: %.3f s of the taking thread (%.0f us per entry); the rest of its time waited",
                takeoverCPU, takeoverCPU * 1e6 / Double(count)))
        say(
            String(
                format: "deleting the taken folders: %.3f s more, in the background after the takeover returned",
                removalSeconds))
        let scaledGoal = Self.goalSeconds * Double(count) / 1000
        let scale = count == 1000 ? "" : String(format: " (the goal for 1000 scaled to %d)", count)
        goal(
            "takeover-seconds", value: takeoverSeconds, unit: "s", op: "<=", target: scaledGoal,
            String(
                format:
                    "%d entries taken over into the outbox%@; the background deletion of their folders took %.3f s more",
                count, scale, removalSeconds))
        goal(
            "takeover-vs-renames", value: takeoverSeconds / renameSeconds, unit: "x", op: "<=",
            target: Self.goalRenameRatio,
            String(format: "%d entries %.3f s, %d plain renames %.3f s", count, takeoverSeconds, count, renameSeconds))
        try database.close()

        guard !options.noSend else { return }

        // 2. Takeover plus send: the built programs as processes.
        let bin =
            try options.binDirectory ?? ShareServer.buildRelease(products: ["share-server", "share-daemon", "share"])
        try FileManager.default.createDirectory(atPath: directory + "/server", withIntermediateDirectories: false)
        let server = try ShareServer(
            executable: bin + "/share-server", seed: nil, directory: directory + "/server", quiet: true)
        defer { server.stop() }
        say("share-server \(bin)/share-server (pid \(server.pid), demo seed) on \(server.origin)")
        let (client, firstPass) = try ShareClient.loggedIn(
            binDirectory: bin, home: directory + "/client", server: server, user: "alex", password: "alex-demo-pass")
        let idlePass = try client.daemonOnce()
        let inbox = FileShareInbox(directory: client.inboxPath)
        let writeAgain = try time { try writeEntries(count, into: inbox, origin: server.origin) }
        let sendPass = try client.daemonOnce()
        try verify(count, server: server, inbox: inbox)
        say(
            String(
                format:
                    "share-daemon --once: first pass (child session, limits) %.3f s, a pass with nothing to do %.3f s",
                firstPass, idlePass))
        say(
            String(
                format:
                    "takeover+send: %d entries in %.2f s with share-daemon --once (%.0f entries/s; %.1fx the time to write them; "
                    + "%.0f entries/s without the idle pass's %.2f s)",
                count, sendPass, Double(count) / sendPass, sendPass / writeAgain,
                Double(count) / max(sendPass - idlePass, 1e-9), idlePass))
        say("every entry arrived once in thread t1 with its client_msg_id; the inbox is empty")
    }

    /// Checks the server's database: one message per entry, no duplicates,
    /// and (with `--attachment`) one attachment each; the inbox is empty.
    private func verify(_ count: Int, server: ShareServer, inbox: FileShareInbox) throws {
        let database = try SQLiteDatabase(path: server.directory + "/server.sqlite")
        defer { try? database.close() }
        let row = try database.query(
            "SELECT count(*) AS n, count(DISTINCT client_msg_id) AS ids FROM messages "
                + "WHERE thread_id = 't1' AND sender = 'alex' AND text LIKE ?", [.text(Self.textPrefix + " %")]
        ).first
        let messages = try row?.get("n", as: Int64.self) ?? 0
        let ids = try row?.get("ids", as: Int64.self) ?? 0
        let attachments =
            try database.query(
                "SELECT count(*) AS n FROM message_attachments a JOIN messages m ON m.id = a.message_id "
                    + "WHERE m.text LIKE ?", [.text(Self.textPrefix + " %")]
            ).first?.get("n", as: Int64.self) ?? 0
        let left = try inbox.scan()
        guard messages == count, ids == count, attachments == (options.attachment ? count : 0),
            left.entries.isEmpty, left.quarantined.isEmpty
        else {
            throw Spawn.Failure(
                description: "after share-daemon --once the server holds \(messages) messages (\(ids) client_msg_ids, "
                    + "\(attachments) attachments) and the inbox \(left.entries.count) entries "
                    + "(\(left.quarantined.count) quarantined); expected \(count)\n" + server.logTail())
        }
    }

    /// Writes `count` entries as `share send --text T [FILE] --queue` does:
    /// a locked draft, the file (fsynced), the manifest, the commit.
    private func writeEntries(_ count: Int, into inbox: FileShareInbox, origin: String) throws {
        let note = Data(repeating: UInt8(ascii: "x"), count: 1023) + Data("\n".utf8)
        let created = ISO8601DateFormatter.string(
            from: Date(), timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withInternetDateTime])
        for index in 0..<count {
            let id = UUIDv7()
            let draft = try inbox.makeDraft(id: id.description)
            var attachments: [InboxAttachment] = []
            if options.attachment {
                try Self.writeSynced(note, to: draft.directory + "/note.txt")
                attachments.append(
                    InboxAttachment(
                        file: "note.txt", fileName: "note-\(index).txt", contentType: "text/plain",
                        size: Int64(note.count)))
            }
            let manifest = InboxManifest(
                clientMsgID: id.description, serverOrigin: origin, target: Self.target,
                comment: "\(Self.textPrefix) \(index): a small text share", createdAt: created,
                attachments: attachments)
            _ = try inbox.commit(draft, manifest: manifest)
            draft.release()
        }
    }

    private static func writeSynced(_ data: Data, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Spawn.Failure(description: "cannot create \(path)") }
        defer { close(descriptor) }
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == data.count, fsync(descriptor) == 0 else {
            throw Spawn.Failure(description: "cannot write \(path)")
        }
    }

    /// The plainest move of `count` folders: made first (not timed), then
    /// each renamed into another folder (timed).
    /// - Returns: the seconds of the renames.
    private static func renameFolders(_ count: Int, in directory: String) throws -> Double {
        for folder in ["/from", "/to"] {
            try FileManager.default.createDirectory(atPath: directory + folder, withIntermediateDirectories: true)
        }
        for index in 0..<count where mkdir(directory + "/from/\(index)", 0o700) != 0 {
            throw Spawn.Failure(description: "mkdir in \(directory) failed")
        }
        let started = Clock.nanoseconds()
        for index in 0..<count where rename(directory + "/from/\(index)", directory + "/to/\(index)") != 0 {
            throw Spawn.Failure(description: "rename in \(directory) failed")
        }
        return Double(Clock.nanoseconds() - started) / 1e9
    }

    /// Prints a GOAL line (benchmarks/README.md).
    private func goal(_ id: String, value: Double, unit: String, op: String, target: Double, _ explanation: String) {
        let met = op == "<=" ? value <= target : value >= target
        say(
            String(
                format: "GOAL %@ value=%.3f%@ %@ %g%@ %@ -- %@", id, value, unit, op, target, unit,
                met ? "PASS" : "FAIL", explanation))
    }

    private func time(_ body: () throws -> Void) throws -> Double {
        let started = Clock.nanoseconds()
        try body()
        return Double(Clock.nanoseconds() - started) / 1e9
    }

    private func say(_ text: String) {
        print(text)
        fflush(nil)
    }
}
