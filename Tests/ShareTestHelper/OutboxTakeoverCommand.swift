import Foundation
import ShareKitInbox
import ShareKitOutbox
import ShareKitOutboxInterface
import ShareKitSQLiteStore

/// `outbox-takeover <inbox-dir> <db> <outbox-dir>`: one takeover pass of a
/// share inbox into the daemon's outbox (SQLite file `<db>`, files under
/// `<outbox-dir>`), as a second daemon started by mistake would run it.
///
/// Prints `ready` once both are open, waits for a line on standard input
/// (so a test starts several at the same moment), runs, and prints the
/// report as one JSON line: `taken_over`, `already_in_outbox`,
/// `skipped_locked`, `quarantined` and `failed` (lists of entry ids) and
/// `milliseconds`.
func outboxTakeoverCommand(_ arguments: [String]) throws {
    let args = HelperArguments(arguments, usage: "outbox-takeover <inbox-dir> <db> <outbox-dir>")
    let inbox = FileShareInbox(directory: try args.string(0))
    let database = try SQLiteDatabase(path: try args.string(1))
    let outbox = try SQLiteOutbox(database: database, directory: try args.string(2))
    printFlushed("ready")
    _ = readLine()
    let started = ContinuousClock.now
    let report = try InboxTakeover(inbox: inbox, outbox: outbox).run()
    let elapsed = ContinuousClock.now - started
    inbox.waitForRemovals()
    let object: [String: Any] = [
        "taken_over": report.takenOver, "already_in_outbox": report.alreadyInOutbox,
        "skipped_locked": report.skippedLocked, "quarantined": report.quarantined.map(\.id),
        "failed": report.failed.map { "\($0.id): \($0.reason)" },
        "milliseconds": elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000,
    ]
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    printFlushed(String(decoding: data, as: UTF8.self))
}
