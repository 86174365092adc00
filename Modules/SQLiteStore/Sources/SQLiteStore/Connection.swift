import CSQLite
import Glibc
import SQLInterface

/// One SQLite connection with its statement cache and transaction depth.
///
/// Not thread-safe: ``SQLiteDatabase`` makes every call under its lock, and
/// the connection is opened in SQLite's multi-thread mode (no mutex of its
/// own) because that lock already serialises it.
final class Connection {
    /// The file, or `:memory:`.
    let path: String
    /// How many ``transaction(_:)`` calls are running (savepoints beyond the first).
    private(set) var transactionDepth = 0
    /// How many statements are being stepped (a ``run(_:_:onRow:)`` whose row
    /// handler runs further statements counts once per level).
    private(set) var activeStatements = 0
    private var handle: OpaquePointer?
    private var cache: StatementCache

    /// The path that asks for a private in-memory database instead of a file.
    static let inMemoryPath = ":memory:"

    /// Opens (creating when missing) and configures the database.
    /// - Parameters:
    ///   - path: the file, whose directory must exist, or `:memory:`.
    ///   - configuration: durability, busy timeout, cache size.
    /// - Throws: ``SQLError``: `.corrupt` for a file that is not a database,
    ///   `.io` with the path and cause when the file cannot be opened.
    init(path: String, configuration: SQLiteConfiguration) throws {
        self.path = path
        cache = StatementCache(capacity: configuration.statementCacheCapacity)
        let inMemory = path == Self.inMemoryPath
        if !inMemory { try DatabaseFile.prepare(path) }

        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
        let rc = sqlite3_open_v2(path, &opened, flags, nil)
        guard rc == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_close_v2(opened)
            throw EngineFailure.error(code: rc, message: "cannot open: \(message)", bindings: [], path: path)
        }
        handle = opened
        do {
            sqlite3_extended_result_codes(opened, 1)
            // Before anything reads the file: even switching to WAL may wait for another process.
            sqlite3_busy_timeout(opened, configuration.busyTimeoutMilliseconds)
            if !inMemory {
                // Readers never block the writer and the writer never blocks
                // readers; the setting is stored in the file.
                let mode = try switchToWAL(waitingUpTo: configuration.busyTimeout)
                guard case .text(let name) = mode, name.lowercased() == "wal" else {
                    throw SQLError.io(
                        code: SQLITE_ERROR,
                        message:
                            "\(path): cannot use write-ahead logging (journal mode stays \(String(describing: mode)))")
                }
            }
            try run("PRAGMA synchronous=\(configuration.synchronous.rawValue)", [], onRow: nil)
            // Off by default in SQLite for compatibility; the schemas rely on it.
            try run("PRAGMA foreign_keys=ON", [], onRow: nil)
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// `PRAGMA journal_mode=WAL`, tried again while another connection opens
    /// the same new file: SQLite answers that race with `SQLITE_BUSY` at once,
    /// without calling the busy handler (two daemons started together hit it).
    private func switchToWAL(waitingUpTo timeout: Duration) throws -> SQLValue? {
        let deadline = ContinuousClock.now + timeout
        while true {
            do {
                return try query("PRAGMA journal_mode=WAL").first?.values.first
            } catch SQLError.busy(_) where ContinuousClock.now < deadline {
                usleep(10_000)
            }
        }
    }

    /// Finalizes every statement and closes the connection; idempotent.
    func close() {
        cache.removeAll()
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// The rowid of the most recent successful insert.
    var lastInsertRowID: Int64 { handle.map { sqlite3_last_insert_rowid($0) } ?? 0 }

    /// Rows changed by the most recent statement.
    var changes: Int { handle.map { Int(sqlite3_changes64($0)) } ?? 0 }

    /// Runs a query and collects its rows.
    /// - Parameters:
    ///   - sql: one statement.
    ///   - bindings: its values.
    /// - Returns: the rows.
    /// - Throws: ``SQLError``.
    func query(_ sql: String, _ bindings: [SQLValue] = []) throws -> [SQLRow] {
        var rows: [SQLRow] = []
        try run(sql, bindings) { rows.append($0) }
        return rows
    }

    /// Runs statements, handing each row to `onRow`.
    /// - Parameters:
    ///   - sql: one statement, or several when `bindings` is empty.
    ///   - bindings: the values of the one statement's parameters.
    ///   - allowTransactionControl: true only for this connection's own `BEGIN`, `COMMIT`, `SAVEPOINT`….
    ///   - onRow: receives the rows; nil discards them.
    /// - Returns: the changes and last inserted rowid after the statements.
    /// - Throws: ``SQLError``, or what `onRow` throws.
    @discardableResult
    func run(
        _ sql: String, _ bindings: [SQLValue], allowTransactionControl: Bool = false,
        onRow: ((SQLRow) throws -> Void)?
    ) throws -> SQLExecution {
        guard let handle else { throw SQLError.misuse(message: "the database \(path) is closed") }
        if transactionDepth > 0, sqlite3_get_autocommit(handle) != 0 {
            throw SQLError.misuse(
                message: "the transaction was already rolled back by SQLite after an earlier error; "
                    + "throw out of the transaction body instead of continuing")
        }
        if let statement = cache.checkOut(sql) {
            defer { cache.checkIn(statement) }
            try step(statement, bindings, allowTransactionControl: allowTransactionControl, onRow: onRow)
        } else {
            try prepareAndStep(sql, bindings, allowTransactionControl: allowTransactionControl, onRow: onRow)
        }
        return SQLExecution(changes: changes, lastInsertRowID: lastInsertRowID)
    }

    /// Prepares the statements of `sql` one after the other (a statement may
    /// refer to a table that the one before creates) and steps each.
    private func prepareAndStep(
        _ sql: String, _ bindings: [SQLValue], allowTransactionControl: Bool, onRow: ((SQLRow) throws -> Void)?
    ) throws {
        guard let handle else { return }
        try sql.withCString { text in
            var cursor = text
            var isFirst = true
            while true {
                var prepared: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let rc = sqlite3_prepare_v3(
                    handle, cursor, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, &tail)
                guard rc == SQLITE_OK else { throw failure(rc, bindings) }
                guard let prepared else { return }  // only blanks or comments were left
                let statement = PreparedStatement(prepared)
                let next = tail ?? cursor
                let isOnly = isFirst && Self.isBlank(next)
                let cached = isOnly && cache.insert(statement, for: sql)
                defer { cached ? cache.checkIn(statement) : statement.finalize() }
                if !bindings.isEmpty && !isOnly {
                    throw SQLError.misuse(
                        message: "values bind to a single statement, but the text holds more than one; "
                            + "run the statements one by one")
                }
                try step(statement, bindings, allowTransactionControl: allowTransactionControl, onRow: onRow)
                isFirst = false
                cursor = next
            }
        }
    }

    /// Binds and steps one statement to its end.
    private func step(
        _ statement: PreparedStatement, _ bindings: [SQLValue], allowTransactionControl: Bool,
        onRow: ((SQLRow) throws -> Void)?
    ) throws {
        guard let handle else { return }
        if statement.isTransactionControl && !allowTransactionControl {
            throw SQLError.misuse(
                message: "BEGIN, COMMIT, ROLLBACK, SAVEPOINT and RELEASE are issued by transaction { }; "
                    + "the connection is shared, so a transaction opened by hand would take in other callers' writes")
        }
        guard statement.parameterCount == bindings.count else {
            throw SQLError.misuse(
                message:
                    "the statement has \(statement.parameterCount) parameters but \(bindings.count) values were given")
        }
        let bound = statement.bind(bindings)
        guard bound == SQLITE_OK else { throw failure(bound, bindings) }
        activeStatements += 1
        defer { activeStatements -= 1 }
        var columns: SQLColumns?
        while true {
            let rc = sqlite3_step(statement.handle)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else { throw failure(rc, bindings) }
            guard let onRow else { continue }
            let resultColumns = columns ?? statement.columns()
            columns = resultColumns
            try onRow(statement.row(resultColumns))
        }
        // A statement that opened a transaction outside transaction { } would
        // leave the shared connection inside it: undo, and say so.
        if !allowTransactionControl, transactionDepth == 0, sqlite3_get_autocommit(handle) == 0 {
            _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
            throw SQLError.misuse(
                message: "a statement opened a transaction outside transaction { }; it was rolled back")
        }
    }

    /// Runs `body` in a transaction: `BEGIN IMMEDIATE` at the outermost level,
    /// a savepoint inside another transaction.
    /// - Parameter body: the work.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws (after the rollback), or ``SQLError``.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        let level = transactionDepth
        let savepoint = "sharekit_savepoint_\(level)"
        try control(level == 0 ? "BEGIN IMMEDIATE" : "SAVEPOINT \(savepoint)")
        transactionDepth += 1
        let value: T
        do {
            value = try body()
        } catch {
            transactionDepth -= 1
            rollback(level: level, savepoint: savepoint)
            throw error
        }
        transactionDepth -= 1
        try commit(level: level, savepoint: savepoint)
        return value
    }

    private func commit(level: Int, savepoint: String) throws {
        guard let handle else { throw SQLError.misuse(message: "the database \(path) is closed") }
        guard sqlite3_get_autocommit(handle) == 0 else {
            // SQLite rolls a transaction back by itself after some errors
            // (disk full, I/O); the body caught one and returned normally.
            throw SQLError.misuse(
                message: "the transaction was rolled back by SQLite after an error that the transaction body caught; "
                    + "nothing was committed")
        }
        do {
            try control(level == 0 ? "COMMIT" : "RELEASE \(savepoint)")
        } catch {
            rollback(level: level, savepoint: savepoint)
            throw error
        }
    }

    /// Undoes the work of a transaction level. Errors are not reported: the
    /// caller is already throwing the error that made it roll back, and the
    /// only failure left is "no transaction", the state wanted.
    private func rollback(level: Int, savepoint: String) {
        guard let handle, sqlite3_get_autocommit(handle) == 0 else { return }
        if level == 0 {
            _ = try? control("ROLLBACK")
        } else {
            // ROLLBACK TO undoes the savepoint's work but keeps it open; RELEASE closes it.
            _ = try? control("ROLLBACK TO \(savepoint)")
            _ = try? control("RELEASE \(savepoint)")
        }
    }

    private func control(_ sql: String) throws {
        try run(sql, [], allowTransactionControl: true, onRow: nil)
    }

    /// The schema version (`PRAGMA user_version`).
    /// - Returns: the version.
    /// - Throws: ``SQLError``.
    func userVersion() throws -> Int {
        guard case .integer(let version) = try query("PRAGMA user_version").first?.values.first else {
            throw SQLError.corrupt(message: "\(path): PRAGMA user_version returned no integer")
        }
        return Int(version)
    }

    private func failure(_ code: Int32, _ bindings: [SQLValue]) -> SQLError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
        return EngineFailure.error(code: code, message: message, bindings: bindings, path: path)
    }

    /// Whether the rest of a statement text holds only whitespace and `;`.
    private static func isBlank(_ text: UnsafePointer<CChar>) -> Bool {
        var cursor = text
        while cursor.pointee != 0 {
            switch UInt8(bitPattern: cursor.pointee) {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: ";"):
                cursor += 1
            default:
                return false
            }
        }
        return true
    }
}
