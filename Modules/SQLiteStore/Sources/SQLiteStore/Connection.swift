import CShareKitSQLite
import Glibc
import ShareKitSQLInterface

/// One SQLite connection with its statement cache and transaction depth.
///
/// Not thread-safe: one thread uses it at a time (``WriteGroups`` hands the
/// writing connection from thread to thread, ``ReaderPool`` lends reading
/// ones out), so it is opened in SQLite's multi-thread mode (no mutex of its
/// own).
final class Connection {
    /// What a connection is opened for.
    enum Role {
        /// The one connection that writes: creates the file when missing,
        /// makes it private and switches it to write-ahead logging.
        case writer
        /// A connection that only reads (`PRAGMA query_only`), opened on a
        /// file that the writer has already prepared.
        case reader
    }

    /// The file, or `:memory:`.
    let path: String
    /// How many ``transaction(_:)`` calls are running (savepoints beyond the first).
    private(set) var transactionDepth = 0
    /// Whether a commit group's transaction is open (``beginGroup()``): the
    /// outermost ``transaction(_:)`` is then a savepoint inside it.
    private(set) var isInGroup = false
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
    ///   - role: the writer (creates and prepares the file) or a reader.
    /// - Throws: ``SQLError``: `.corrupt` for a file that is not a database,
    ///   `.io` with the path and cause when the file cannot be opened, or with
    ///   the Debian package to install when libsqlite3 cannot be loaded.
    init(path: String, configuration: SQLiteConfiguration, role: Role = .writer) throws {
        self.path = path
        cache = StatementCache(capacity: configuration.statementCacheCapacity)
        try SQLiteLibrary.requireLoaded()
        let inMemory = path == Self.inMemoryPath
        if !inMemory && role == .writer { try DatabaseFile.prepare(path) }

        var opened: OpaquePointer?
        // A reader opens read-write all the same: WAL readers write the
        // shared-memory index; `query_only` below keeps it from writing data.
        let create = role == .writer ? SQLITE_OPEN_CREATE : 0
        let flags = SQLITE_OPEN_READWRITE | create | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
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
            // Commit groups run each member in a savepoint, whose undo
            // records (the statement journal) would otherwise spill to a
            // temporary file past 64 KiB: one write per page, per member.
            try run("PRAGMA temp_store=MEMORY", [], onRow: nil)
            // A write that reached a reader by mistake fails instead of
            // committing beside the writer's commit groups.
            if role == .reader { try run("PRAGMA query_only=ON", [], onRow: nil) }
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

    /// Whether no transaction is open: true after SQLite rolled an open one
    /// back by itself (it does after some errors: disk full, I/O).
    var isAutocommit: Bool { handle.map { sqlite3_get_autocommit($0) != 0 } ?? true }

    /// Whether any statement is being stepped or any transaction or group is open.
    var isBusy: Bool { transactionDepth > 0 || activeStatements > 0 || isInGroup }

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

    /// Runs one statement if it only reads, as ``run(_:_:allowTransactionControl:onRow:)`` does.
    /// - Parameters:
    ///   - sql: the statement text.
    ///   - bindings: its values.
    ///   - onRow: receives the rows; nil discards them.
    /// - Returns: nil, without running anything, when `sql` is not exactly one
    ///   statement or the statement may write (`sqlite3_stmt_readonly`).
    /// - Throws: ``SQLError`` (a statement SQLite cannot prepare, for one), or what `onRow` throws.
    func runIfReadOnly(_ sql: String, _ bindings: [SQLValue], onRow: ((SQLRow) throws -> Void)?) throws
        -> SQLExecution?
    {
        guard let handle else { throw SQLError.misuse(message: "the database \(path) is closed") }
        if let statement = cache.checkOut(sql) {
            defer { cache.checkIn(statement) }
            guard statement.isReadOnly else { return nil }
            try step(statement, bindings, allowTransactionControl: false, onRow: onRow)
        } else {
            let prepared: PreparedStatement? = try sql.withCString { text in
                var statement: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let rc = sqlite3_prepare_v3(handle, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, &tail)
                guard rc == SQLITE_OK else { throw failure(rc, bindings) }
                guard let statement else { return nil }
                guard Self.isBlank(tail ?? text), sqlite3_stmt_readonly(statement) != 0 else {
                    sqlite3_finalize(statement)
                    return nil
                }
                return PreparedStatement(statement)
            }
            guard let statement = prepared else { return nil }
            let cached = cache.insert(statement, for: sql)
            defer { cached ? cache.checkIn(statement) : statement.finalize() }
            try step(statement, bindings, allowTransactionControl: false, onRow: onRow)
        }
        return SQLExecution(changes: changes, lastInsertRowID: lastInsertRowID)
    }

    /// Whether `sql` is one statement that only reads; prepares (and caches) it to find out.
    /// - Parameter sql: the statement text.
    /// - Returns: false for several statements, for one that may write, and for one SQLite cannot prepare.
    func isReadOnly(_ sql: String) -> Bool {
        guard let handle else { return false }
        if let statement = cache.checkOut(sql) {
            defer { cache.checkIn(statement) }
            return statement.isReadOnly
        }
        return sql.withCString { text in
            var statement: OpaquePointer?
            var tail: UnsafePointer<CChar>?
            guard
                sqlite3_prepare_v3(handle, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, &tail) == SQLITE_OK,
                let statement
            else { return false }
            let prepared = PreparedStatement(statement)
            let readOnly = prepared.isReadOnly && Self.isBlank(tail ?? text)
            if readOnly && cache.insert(prepared, for: sql) {
                cache.checkIn(prepared)
            } else {
                prepared.finalize()
            }
            return readOnly
        }
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
        if !allowTransactionControl, transactionDepth == 0, !isInGroup, sqlite3_get_autocommit(handle) == 0 {
            _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
            throw SQLError.misuse(
                message: "a statement opened a transaction outside transaction { }; it was rolled back")
        }
    }

    /// Opens the transaction of a commit group (`BEGIN IMMEDIATE`): the
    /// transactions run until ``commitGroup()`` are savepoints inside it,
    /// and all of them become durable with its one commit.
    /// - Throws: ``SQLError`` (`.busy` when another process holds the write lock past the busy timeout).
    func beginGroup() throws {
        precondition(transactionDepth == 0 && !isInGroup, "a group opens outside any transaction")
        try control("BEGIN IMMEDIATE")
        isInGroup = true
    }

    /// Commits the group's transaction (with `synchronous=FULL`, one flush
    /// to the disk for everything in it); rolls it back when the commit fails.
    /// - Throws: ``SQLError`` when the commit fails: nothing of the group was committed.
    func commitGroup() throws {
        guard isInGroup else { return }
        isInGroup = false
        guard !isAutocommit else {
            throw SQLError.io(
                code: SQLITE_ABORT,
                message: "\(path): the transaction was rolled back by SQLite after an error; nothing was committed")
        }
        do {
            try control("COMMIT")
        } catch {
            if !isAutocommit { _ = try? control("ROLLBACK") }
            throw error
        }
    }

    /// Forgets a group whose transaction SQLite has rolled back by itself
    /// (``isAutocommit`` is true again), so the next transaction opens a new one.
    func groupRolledBack() {
        isInGroup = false
    }

    /// Runs `body` in a transaction: `BEGIN IMMEDIATE` at the outermost level,
    /// a savepoint inside another transaction or inside a commit group.
    /// - Parameter body: the work.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws (after the rollback), or ``SQLError``.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        let level = transactionDepth
        let savepoint = "sharekit_savepoint_\(level)"
        try control(level == 0 && !isInGroup ? "BEGIN IMMEDIATE" : "SAVEPOINT \(savepoint)")
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
            try control(level == 0 && !isInGroup ? "COMMIT" : "RELEASE \(savepoint)")
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
        if level == 0 && !isInGroup {
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
