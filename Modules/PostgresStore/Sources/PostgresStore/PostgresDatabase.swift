import Foundation
public import SQLInterface

/// An ``SQLInterface/SQLDatabase`` on a PostgreSQL server, through libpq:
/// one connection, shared by every thread like `SQLiteDatabase`'s.
///
/// ```swift
/// let database = try PostgresDatabase(connection: "postgresql://share@/sharekit?host=/run/postgresql")
/// try database.migrate(["CREATE TABLE entries (id TEXT PRIMARY KEY, body BYTEA NOT NULL)"])
/// try database.transaction {
///     try database.execute("INSERT INTO entries VALUES (?, ?)", [.text(id), .blob(body)])
/// }
/// ```
///
/// ## Placeholders and values
/// Statements take the interface's `?` placeholders; each becomes `$1…$n`
/// where PostgreSQL reads an operator character (not inside a literal, a
/// quoted identifier or a comment), so operators spelt with `?` (jsonb's
/// `?`) are out of reach, and a `$n` written by hand is refused. Values are
/// bound beside the statement, never spliced into it: `integer` as
/// `bigint`, `real` as `double precision`, `text` as `text`, `blob` as
/// `bytea`, `null` untyped. Text may not contain NUL characters. Rows come
/// back typed by their column (see the module's overview).
///
/// ## Transactions
/// ``transaction(_:)`` runs with ``PostgresConfiguration/isolation``,
/// ``PostgresIsolation/exclusive`` by default: one transaction at a time
/// over the whole database, as `SQLDatabase` promises. With
/// ``PostgresIsolation/serializable`` transactions overlap and a conflict
/// throws `SQLError.serializationFailure`: run the whole transaction again.
/// A failing statement inside a transaction undoes only itself, as the
/// interface promises (statements that may write run under a savepoint).
///
/// ## Differences from SQLite
/// - ``lastInsertRowID`` and `SQLExecution.lastInsertRowID` are 0:
///   PostgreSQL tables have no rowid. Use `INSERT … RETURNING id` (which
///   SQLite 3.35 and later understands too).
/// - Unquoted names are folded to lower case: `SELECT count(*) AS Total`
///   names its column `total`.
/// - A connection the server dropped (a restart, a crash) fails the call
///   that finds it with `SQLError.io` saying so; the next call outside a
///   transaction connects again.
///
/// Errors never contain a bound value or the connection string's password.
public final class PostgresDatabase: SQLDatabase, @unchecked Sendable {
    /// The settings it was opened with.
    public let configuration: PostgresConfiguration

    // Guards `connection`: every libpq call on it runs under this lock
    // (@unchecked Sendable rests on that). Recursive so that a transaction
    // body or row handler on the same thread can run statements.
    private let lock = NSRecursiveLock()
    private var connection: Connection?

    /// Connects to a server.
    /// - Parameters:
    ///   - connection: a libpq connection URI
    ///     (`postgresql://USER@HOST/DB?host=/socket/dir`) or `key=value` list;
    ///     a password in it never appears in an error.
    ///   - configuration: isolation, lock and connect timeouts, statement cache.
    /// - Throws: `SQLError.misuse` for a string libpq cannot read;
    ///   `SQLError.io` naming the cause when the server cannot be reached,
    ///   refuses the login or is older than PostgreSQL 12.
    public init(connection: String, configuration: PostgresConfiguration = PostgresConfiguration()) throws {
        self.configuration = configuration
        self.connection = try Connection(connectionString: connection, configuration: configuration)
    }

    /// Runs statements and discards their rows (see ``SQLInterface/SQLDatabase/execute(_:_:)``).
    /// - Parameters:
    ///   - sql: one statement with `?` placeholders, or several without.
    ///   - bindings: one value per placeholder.
    /// - Returns: the rows changed; the rowid is always 0.
    /// - Throws: ``SQLInterface/SQLError``.
    @discardableResult
    public func execute(_ sql: String, _ bindings: [SQLValue]) throws -> SQLExecution {
        try withConnection { try $0.run(sql, bindings, mode: .discard).0 }
    }

    /// Runs a query and collects its rows (see ``SQLInterface/SQLDatabase/query(_:_:)``).
    /// - Parameters:
    ///   - sql: one statement with `?` placeholders.
    ///   - bindings: one value per placeholder.
    /// - Returns: the rows.
    /// - Throws: ``SQLInterface/SQLError``.
    public func query(_ sql: String, _ bindings: [SQLValue]) throws -> [SQLRow] {
        try withConnection { try $0.run(sql, bindings, mode: .collect).1 }
    }

    /// Runs a query and hands each row to `body` as it arrives (see
    /// ``SQLInterface/SQLDatabase/forEachRow(_:_:_:)``). When `body` runs
    /// another statement, the rest of the result is read into memory first;
    /// when it throws, the rest is read and dropped (use `LIMIT` to stop a
    /// large result early).
    /// - Parameters:
    ///   - sql: one statement with `?` placeholders.
    ///   - bindings: one value per placeholder.
    ///   - body: called once per row; may use this database.
    /// - Throws: ``SQLInterface/SQLError``, or what `body` throws.
    public func forEachRow(_ sql: String, _ bindings: [SQLValue], _ body: (SQLRow) throws -> Void) throws {
        // The connection takes an escaping handler in its mode; `body` is
        // used only during the call.
        try withoutActuallyEscaping(body) { body in
            _ = try withConnection { try $0.run(sql, bindings, mode: .stream(body)) }
        }
    }

    /// Runs `body` in a transaction with ``PostgresConfiguration/isolation``;
    /// a nested call is a savepoint (see ``SQLInterface/SQLDatabase/transaction(_:)``).
    /// - Parameter body: the work; it uses this database.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws (after rolling back), or ``SQLInterface/SQLError``:
    ///   `.busy` when the exclusive lock was not free within the lock timeout,
    ///   `.serializationFailure` when a concurrent transaction won (not with
    ///   ``PostgresIsolation/exclusive``), `.io` when the connection was lost.
    @discardableResult
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try transaction(isolation: configuration.isolation, body)
    }

    /// Runs `body` in a transaction with the given isolation; a nested call
    /// is a savepoint of the outer transaction, whose isolation it shares.
    /// - Parameters:
    ///   - isolation: how the transaction is isolated from other connections.
    ///   - body: the work; it uses this database.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws (after rolling back), or ``SQLInterface/SQLError``
    ///   as ``transaction(_:)`` does.
    @discardableResult
    public func transaction<T>(isolation: PostgresIsolation, _ body: () throws -> T) throws -> T {
        try withConnection { try $0.transaction(isolation: isolation, body) }
    }

    /// Always 0: PostgreSQL has no rowid. Read generated keys with `INSERT … RETURNING`.
    public var lastInsertRowID: Int64 { 0 }

    /// Always ``SQLInterface/SQLDialect/postgresql``.
    public var dialect: SQLDialect { .postgresql }

    /// Rows changed by the most recent `INSERT`, `UPDATE`, `DELETE` or
    /// `MERGE` on this connection (0 when closed); exact inside a transaction.
    public var changes: Int {
        lock.withLock { connection?.changes ?? 0 }
    }

    /// Messages this connection sent and waited on so far (statements,
    /// prepares, transaction control): lets tests hold a transaction's
    /// round trips down, since the exclusive lock is held through them.
    var roundTrips: Int {
        lock.withLock { connection?.roundTrips ?? 0 }
    }

    /// Applies the migration steps not yet applied, in one transaction (see
    /// ``SQLInterface/SQLDatabase/migrate(_:)``). The version is kept in the
    /// table `sharekit_schema_version`; an advisory lock makes processes
    /// that migrate at once take turns, so each step runs once.
    /// - Parameter steps: the scripts, oldest first; each may hold several statements.
    /// - Returns: the number of steps applied now.
    /// - Throws: `SQLError.schemaTooNew`, or the error of a failing step.
    @discardableResult
    public func migrate(_ steps: [String]) throws -> Int {
        try withConnection { try $0.migrate(steps) }
    }

    /// The schema version that ``migrate(_:)`` maintains.
    /// - Returns: the number of migration steps applied (0 for a database never migrated).
    /// - Throws: ``SQLInterface/SQLError``.
    public func schemaVersion() throws -> Int {
        try withConnection { try $0.schemaVersion() }
    }

    /// Closes the connection; closing again does nothing.
    /// - Throws: `SQLError.misuse` inside a transaction or a row handler.
    public func close() throws {
        try lock.withLock {
            guard let connection else { return }
            guard connection.transactionDepth == 0, !connection.isReading else {
                throw SQLError.misuse(
                    message: "cannot close the PostgreSQL connection inside a transaction or while reading rows")
            }
            connection.close()
            self.connection = nil
        }
    }

    private func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        try lock.withLock {
            guard let connection else { throw SQLError.misuse(message: "the PostgreSQL connection is closed") }
            return try body(connection)
        }
    }
}
