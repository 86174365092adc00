import Foundation
public import SQLInterface

/// An ``SQLDatabase`` in one SQLite file: write-ahead logging, durable
/// commits, foreign keys on, a busy timeout for other processes, and a cache
/// of prepared statements.
///
/// One connection serves every thread: a recursive lock serialises the
/// calls, so the thread inside a transaction (or a row handler) can call back
/// in while other threads wait their turn. Several processes may open the
/// same file; SQLite's file locks order their writers, each waiting up to
/// ``SQLiteConfiguration/busyTimeout``.
///
/// ```swift
/// let database = try SQLiteDatabase(path: directory + "/outbox.sqlite")
/// try database.migrate(["CREATE TABLE entries (id TEXT PRIMARY KEY, body BLOB NOT NULL)"])
/// try database.transaction {
///     try database.execute("INSERT INTO entries VALUES (?, ?)", [.text(id), .blob(body)])
/// }
/// ```
///
/// The file (and its `-wal` and `-shm` companions) is private to the owner
/// (mode 0600). Errors name the file but never a bound value.
public final class SQLiteDatabase: SQLDatabase, @unchecked Sendable {
    /// The file, or `:memory:` for a database that lives in this object only.
    public let path: String
    /// The settings it was opened with.
    public let configuration: SQLiteConfiguration

    // Guards `connection`: every SQLite call on it runs under this lock
    // (@unchecked Sendable rests on that). Recursive so that a transaction
    // body or row handler on the same thread can run statements.
    private let lock = NSRecursiveLock()
    private var connection: Connection?

    /// Opens a database file, creating it (mode 0600) when it is missing.
    /// - Parameters:
    ///   - path: the file; its directory must exist. `:memory:` opens a
    ///     private in-memory database (no WAL, nothing on disk).
    ///   - configuration: durability, busy timeout and statement cache size.
    /// - Throws: ``SQLError/corrupt(message:)`` when the file is not a
    ///   database; ``SQLError/io(code:message:)`` naming the path and cause
    ///   when it cannot be opened (a missing directory, a symbolic link);
    ///   ``SQLError/busy(message:)`` when another process holds it too long.
    public init(path: String, configuration: SQLiteConfiguration = SQLiteConfiguration()) throws {
        self.path = path
        self.configuration = configuration
        connection = try Connection(path: path, configuration: configuration)
    }

    /// Opens a private in-memory database, gone when closed: for tests and caches.
    /// - Parameter configuration: the settings (durability does not apply).
    /// - Returns: the database.
    /// - Throws: ``SQLError`` when SQLite cannot allocate it.
    public static func inMemory(configuration: SQLiteConfiguration = SQLiteConfiguration()) throws -> SQLiteDatabase {
        try SQLiteDatabase(path: Connection.inMemoryPath, configuration: configuration)
    }

    /// Runs statements and discards their rows (see ``SQLDatabase/execute(_:_:)``).
    /// - Parameters:
    ///   - sql: one statement with `?` placeholders, or several without.
    ///   - bindings: one value per placeholder.
    /// - Returns: the changes and the last inserted rowid.
    /// - Throws: ``SQLError``.
    @discardableResult
    public func execute(_ sql: String, _ bindings: [SQLValue]) throws -> SQLExecution {
        try withConnection { try $0.run(sql, bindings, onRow: nil) }
    }

    /// Runs a query and collects its rows (see ``SQLDatabase/query(_:_:)``).
    /// - Parameters:
    ///   - sql: one statement with `?` placeholders.
    ///   - bindings: one value per placeholder.
    /// - Returns: the rows.
    /// - Throws: ``SQLError``.
    public func query(_ sql: String, _ bindings: [SQLValue]) throws -> [SQLRow] {
        try withConnection { try $0.query(sql, bindings) }
    }

    /// Runs a query and hands each row to `body` as it is read (see
    /// ``SQLDatabase/forEachRow(_:_:_:)``).
    /// - Parameters:
    ///   - sql: one statement with `?` placeholders.
    ///   - bindings: one value per placeholder.
    ///   - body: called once per row; may use this database.
    /// - Throws: ``SQLError``, or what `body` throws.
    public func forEachRow(_ sql: String, _ bindings: [SQLValue], _ body: (SQLRow) throws -> Void) throws {
        // The connection takes an optional (hence escaping) handler; `body`
        // is used only during the call.
        try withoutActuallyEscaping(body) { body in
            _ = try withConnection { try $0.run(sql, bindings, onRow: body) }
        }
    }

    /// Runs `body` in a transaction: `BEGIN IMMEDIATE`, a savepoint when
    /// nested (see ``SQLDatabase/transaction(_:)``).
    /// - Parameter body: the work; it uses this database.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws (after rolling back), or ``SQLError``.
    @discardableResult
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try withConnection { try $0.transaction(body) }
    }

    /// The rowid of the most recent successful `INSERT` on this connection
    /// (0 when closed); exact inside a transaction.
    public var lastInsertRowID: Int64 {
        lock.withLock { connection?.lastInsertRowID ?? 0 }
    }

    /// Rows changed by the most recent statement (0 when closed); exact inside a transaction.
    public var changes: Int {
        lock.withLock { connection?.changes ?? 0 }
    }

    /// Applies the migration steps not yet applied, in one transaction (see
    /// ``SQLDatabase/migrate(_:)``).
    /// - Parameter steps: the scripts, oldest first.
    /// - Returns: the number of steps applied now.
    /// - Throws: ``SQLError/schemaTooNew(version:known:)``, or the error of a failing step.
    @discardableResult
    public func migrate(_ steps: [String]) throws -> Int {
        try withConnection { connection in
            try connection.transaction {
                // Read inside the write transaction: a second process that
                // migrates at the same time sees the version the first one set.
                let version = try connection.userVersion()
                guard version <= steps.count else { throw SQLError.schemaTooNew(version: version, known: steps.count) }
                guard version < steps.count else { return 0 }
                for step in steps[max(0, version)...] {
                    try connection.run(step, [], onRow: nil)
                }
                try connection.run("PRAGMA user_version = \(steps.count)", [], onRow: nil)
                return steps.count - max(0, version)
            }
        }
    }

    /// The schema version that ``migrate(_:)`` maintains (`PRAGMA user_version`).
    /// - Returns: the number of migration steps applied.
    /// - Throws: ``SQLError``.
    public func schemaVersion() throws -> Int {
        try withConnection { try $0.userVersion() }
    }

    /// Closes the connection; closing again does nothing.
    /// - Throws: ``SQLError/misuse(message:)`` inside a transaction or a row handler.
    public func close() throws {
        try lock.withLock {
            guard let connection else { return }
            guard connection.transactionDepth == 0, connection.activeStatements == 0 else {
                throw SQLError.misuse(message: "cannot close \(path) inside a transaction or while reading rows")
            }
            connection.close()
            self.connection = nil
        }
    }

    private func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        try lock.withLock {
            guard let connection else { throw SQLError.misuse(message: "the database \(path) is closed") }
            return try body(connection)
        }
    }
}
