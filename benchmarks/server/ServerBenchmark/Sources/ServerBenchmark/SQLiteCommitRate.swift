import Foundation
import SQLInterface
import SQLiteStore

/// The storage reference for the server's createMessage rate: how many
/// one-row transactions SQLite itself commits per second with the server's
/// settings (WAL, `synchronous=FULL`, the SQLiteStore module), on the disk of
/// the server's database. Each createMessage commits at least one
/// transaction, so requests/s : commits/s tells how close the server runs
/// to what its storage allows on this machine.
enum SQLiteCommitRate {
    /// Commits one-row inserts for `seconds` from one connection.
    /// - Parameters:
    ///   - seconds: how long to commit.
    ///   - directory: where the reference database goes (removed afterwards).
    /// - Returns: commits per second of elapsed time.
    /// - Throws: `SQLError` when the database cannot be opened or written.
    static func measure(seconds: Double, directory: String) throws -> Double {
        let path = directory + "/sqlite-reference.db"
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let database = try SQLiteDatabase(path: path)
        defer { try? database.close() }
        _ = try database.execute(
            "CREATE TABLE IF NOT EXISTS messages (id TEXT PRIMARY KEY, thread_id TEXT NOT NULL, "
                + "client_msg_id TEXT NOT NULL, text TEXT NOT NULL, created_at INTEGER NOT NULL)", [])
        let started = DispatchTime.now().uptimeNanoseconds
        var commits = 0
        var elapsed = 0.0
        while elapsed < seconds {
            try database.transaction {
                _ = try database.execute(
                    "INSERT INTO messages (id, thread_id, client_msg_id, text, created_at) VALUES (?, ?, ?, ?, ?)",
                    [
                        .text(UUID().uuidString), .text("t1"), .text(UUID().uuidString),
                        .text("a benchmark message of a usual length"), .integer(Int64(commits)),
                    ])
            }
            commits += 1
            elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        }
        return Double(commits) / elapsed
    }
}
