public import ShareKitSQLInterface

/// An ``SQLDatabase`` in one SQLite file: write-ahead logging, durable
/// commits, foreign keys on, a busy timeout for other processes, a cache
/// of prepared statements, and group commit.
///
/// One connection writes for every thread. Transactions (and statements
/// that write outside one) from threads that arrive while another's is
/// running share one commit, so that with `synchronous=FULL` many of them
/// cost one flush to the disk, and each returns only once that commit is
/// durable (``WriteGroups`` explains the rules). A single thread sees no
/// difference: its transactions commit one by one as before.
///
/// Statements outside any transaction that only read go to a pool of
/// reading connections when ``SQLiteConfiguration/readers`` is above 0: they
/// run beside the writer and see what is committed. With no readers they
/// run on the writing connection, after the open group's commit. The thread
/// inside a transaction body (or a row handler of the writing connection)
/// runs its statements in that transaction. Several processes may open the
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
public final class SQLiteDatabase: SQLDatabase, Sendable {
    /// The file, or `:memory:` for a database that lives in this object only.
    public let path: String
    /// The settings it was opened with.
    public let configuration: SQLiteConfiguration

    private let writer: WriteGroups
    /// Nil for an in-memory database (each connection would be a database
    /// of its own) and when the configuration asks for no readers.
    private let readers: ReaderPool?

    /// Opens a database file, creating it (mode 0600) when it is missing.
    /// - Parameters:
    ///   - path: the file; its directory must exist. `:memory:` opens a
    ///     private in-memory database (no WAL, nothing on disk).
    ///   - configuration: durability, busy timeout, statement cache size,
    ///     readers and the size of commit groups.
    /// - Throws: ``SQLError/corrupt(message:)`` when the file is not a
    ///   database; ``SQLError/io(code:message:)`` naming the path and cause
    ///   when it cannot be opened (a missing directory, a symbolic link);
    ///   ``SQLError/busy(message:)`` when another process holds it too long.
    public init(path: String, configuration: SQLiteConfiguration = SQLiteConfiguration()) throws {
        self.path = path
        self.configuration = configuration
        let connection = try Connection(path: path, configuration: configuration)
        writer = WriteGroups(connection: connection, limit: configuration.groupCommitLimit)
        readers =
            path == Connection.inMemoryPath || configuration.readers == 0
            ? nil : ReaderPool(path: path, configuration: configuration, capacity: configuration.readers)
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
        try run(sql, bindings, onRow: nil)
    }

    /// Runs a query and collects its rows (see ``SQLDatabase/query(_:_:)``).
    /// - Parameters:
    ///   - sql: one statement with `?` placeholders.
    ///   - bindings: one value per placeholder.
    /// - Returns: the rows.
    /// - Throws: ``SQLError``.
    public func query(_ sql: String, _ bindings: [SQLValue]) throws -> [SQLRow] {
        var rows: [SQLRow] = []
        try run(sql, bindings) { rows.append($0) }
        return rows
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
            _ = try run(sql, bindings, onRow: body)
        }
    }

    /// Runs `body` in a transaction: `BEGIN IMMEDIATE` (or a savepoint in
    /// the open commit group), a savepoint when nested (see
    /// ``SQLDatabase/transaction(_:)``). Returns once the commit is durable.
    /// - Parameter body: the work; it uses this database.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws (after rolling back), or ``SQLError``.
    @discardableResult
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try writer.transaction(body)
    }

    /// The rowid of the most recent successful `INSERT` on the writing
    /// connection (0 when closed); exact inside a transaction.
    public var lastInsertRowID: Int64 {
        (try? writer.exclusive { $0.lastInsertRowID }) ?? 0
    }

    /// Always ``ShareKitSQLInterface/SQLDialect/sqlite``.
    public var dialect: SQLDialect { .sqlite }

    /// Rows changed by the most recent statement on the writing connection
    /// (0 when closed); exact inside a transaction.
    public var changes: Int {
        (try? writer.exclusive { $0.changes }) ?? 0
    }

    /// Applies the migration steps not yet applied, in one transaction (see
    /// ``SQLDatabase/migrate(_:)``).
    /// - Parameter steps: the scripts, oldest first.
    /// - Returns: the number of steps applied now.
    /// - Throws: ``SQLError/schemaTooNew(version:known:)``, or the error of a failing step.
    @discardableResult
    public func migrate(_ steps: [String]) throws -> Int {
        try writer.exclusive { connection in
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
        try writer.exclusive { try $0.userVersion() }
    }

    /// Commits what is open and closes the connections; closing again does nothing.
    /// - Throws: ``SQLError/misuse(message:)`` inside a transaction or a row handler.
    public func close() throws {
        if readers?.isLentToCurrentThread == true || writer.isHeldByCurrentThread {
            throw SQLError.misuse(message: "cannot close \(path) inside a transaction or while reading rows")
        }
        // The writer last: the last connection to close copies the log into
        // the file and removes it.
        readers?.close()
        try writer.close()
    }

    /// Where a statement runs: in the transaction this thread is inside; on
    /// a reader when it only reads; else as a transaction of its own on the writer.
    @discardableResult
    private func run(_ sql: String, _ bindings: [SQLValue], onRow: ((SQLRow) throws -> Void)?) throws
        -> SQLExecution
    {
        if let readers, !writer.isHeldByCurrentThread,
            let result = try readers.run(sql, bindings, onRow: onRow)
        {
            return result
        }
        return try writer.statement(sql, bindings, onRow: onRow)
    }
}
