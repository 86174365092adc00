import BenchmarkSupport
import CSQLite3
import Foundation
import Glibc

/// The storage reference for the server's createMessage rate: how many
/// one-row transactions SQLite itself commits per second on one
/// connection, with the settings of the server's database, in the server's
/// database directory (so on the same disk).
///
/// It calls libsqlite3 directly (no SQLiteStore, none of the server's
/// code), with the pragmas the server's writing connection sets: write-ahead
/// logging, `synchronous=FULL` (each commit waits for its flush to the
/// disk), foreign keys on, temporary storage in memory, a 5 s busy timeout;
/// the page size is read from the server's database. Everything else is
/// SQLite's default (a checkpoint by the commit that passes 1000 log
/// pages). Each commit is `BEGIN IMMEDIATE`, one `INSERT` of a row shaped
/// like a message, `COMMIT`: exactly what SQLite needs to make one row
/// durable, so requests/s : commits/s says how close the server gets to
/// what the disk allows one writer, and above 1.0 that requests share commits.
enum SQLiteReference {
    /// A failing SQLite call, for a person.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The pragmas of the server's writing connection (SQLiteStore's
    /// `Connection` for the writer), in the order it sets them.
    static let pragmas = [
        "PRAGMA busy_timeout=5000", "PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL", "PRAGMA foreign_keys=ON",
        "PRAGMA temp_store=MEMORY",
    ]

    /// Commits one-row transactions for `seconds`.
    /// - Parameters:
    ///   - seconds: how long to commit.
    ///   - directory: where the reference database goes (removed afterwards).
    ///   - serverDatabase: the server's database, whose page size is used.
    /// - Returns: commits per second of elapsed time.
    /// - Throws: ``Failure`` naming the call that failed.
    static func measure(seconds: Double, directory: String, serverDatabase: String) throws -> Double {
        let path = directory + "/sqlite-reference.db"
        defer {
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
        }
        let pageSize = try pageSize(of: serverDatabase)
        var handle: OpaquePointer?
        let opened = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        guard opened == SQLITE_OK, let db = handle else {
            sqlite3_close_v2(handle)
            throw Failure(description: "cannot open \(path): \(String(cString: sqlite3_errstr(opened)))")
        }
        defer { sqlite3_close_v2(db) }
        try exec(db, "PRAGMA page_size=\(pageSize)")
        for pragma in pragmas { try exec(db, pragma) }
        try exec(
            db,
            "CREATE TABLE messages (id TEXT PRIMARY KEY, thread_id TEXT NOT NULL, client_msg_id TEXT NOT NULL, "
                + "text TEXT NOT NULL, created_at INTEGER NOT NULL)")
        let begin = try prepare(db, "BEGIN IMMEDIATE")
        let insert = try prepare(
            db, "INSERT INTO messages (id, thread_id, client_msg_id, text, created_at) VALUES (?, ?, ?, ?, ?)")
        let commit = try prepare(db, "COMMIT")
        defer {
            for statement in [begin, insert, commit] { sqlite3_finalize(statement) }
        }
        let text = "a benchmark message of a usual length"
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        let started = Clock.nanoseconds()
        let deadline = started + UInt64(seconds * 1e9)
        var commits: Int64 = 0
        var now = started
        while now < deadline {
            try step(db, begin)
            let id = "m_reference_\(commits)"
            sqlite3_bind_text(insert, 1, id, -1, transient)
            sqlite3_bind_text(insert, 2, "t-bench", -1, transient)
            sqlite3_bind_text(insert, 3, "c_\(commits)", -1, transient)
            sqlite3_bind_text(insert, 4, text, -1, transient)
            sqlite3_bind_int64(insert, 5, commits)
            try step(db, insert)
            try step(db, commit)
            commits += 1
            now = Clock.nanoseconds()
        }
        return Double(commits) / (Double(now - started) / 1e9)
    }

    /// The page size of a database file (read-only).
    private static func pageSize(of path: String) throws -> Int {
        var handle: OpaquePointer?
        let opened = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil)
        defer { sqlite3_close_v2(handle) }
        guard opened == SQLITE_OK, let db = handle else {
            throw Failure(description: "cannot open \(path): \(String(cString: sqlite3_errstr(opened)))")
        }
        let statement = try prepare(db, "PRAGMA page_size")
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else {
            throw Failure(description: "PRAGMA page_size on \(path): \(String(cString: sqlite3_errmsg(db)))")
        }
        return Int(sqlite3_column_int64(statement, 0))
    }

    private static func exec(_ db: OpaquePointer, _ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw Failure(description: "\(sql): \(String(cString: sqlite3_errmsg(db)))")
        }
    }

    private static func prepare(_ db: OpaquePointer, _ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw Failure(description: "\(sql): \(String(cString: sqlite3_errmsg(db)))")
        }
        return statement
    }

    /// Steps a statement to its end and resets it.
    private static func step(_ db: OpaquePointer, _ statement: OpaquePointer) throws {
        let result = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard result == SQLITE_DONE else {
            throw Failure(
                description: "\(String(cString: sqlite3_sql(statement))): \(String(cString: sqlite3_errmsg(db)))")
        }
    }
}
