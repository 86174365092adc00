/// An open SQL database: one connection, safe to share between threads and
/// tasks. SQLiteStore implements it on an embedded file, PostgresStore on a
/// PostgreSQL server.
///
/// The implementation's initializer opens the database; ``close()`` ends it.
/// Statements take positional `?` parameters, bound from an array of
/// ``SQLValue`` whose count must match.
///
/// ## Threads and processes
/// Writes are serialised: one transaction body runs at a time, and a thread
/// inside ``transaction(_:)`` (or the body of ``forEachRow(_:_:_:)``) may
/// call back into the database; its statements belong to that transaction.
/// Other threads' writers wait for it; other processes wait up to the
/// implementation's busy timeout and then get ``SQLError/busy(message:)``.
/// A statement outside any transaction sees only committed data; an
/// implementation may run such reads beside a transaction on another
/// thread instead of after it. A transaction that returns is durable: an
/// implementation may make several threads' transactions durable with one
/// commit (group commit), but none of them returns before that commit.
/// All calls are synchronous and may block, so an async caller spends a
/// thread for the duration of a call.
///
/// ## Transactions
/// ``transaction(_:)`` starts with `BEGIN IMMEDIATE`: it takes the write lock
/// at once, so writers serialise up front and a transaction never fails half
/// way because another writer came first. It commits when the body returns
/// and rolls back when the body throws, then rethrows the body's error
/// unchanged. A nested call (the body calls ``transaction(_:)`` again)
/// becomes a savepoint: its throw undoes only its own work, and nothing is
/// durable before the outermost transaction commits. Statements that control
/// transactions (`BEGIN`, `COMMIT`, `END`, `ROLLBACK`, `SAVEPOINT`, `RELEASE`)
/// are refused with ``SQLError/misuse(message:)``: the connection is shared,
/// so a transaction left open by hand would swallow other threads' writes.
/// A constraint violation inside a transaction undoes only its statement;
/// catch it and the transaction goes on. An engine that lets transactions
/// overlap reports a conflict between them as
/// ``SQLError/serializationFailure(message:)``: the whole transaction was
/// rolled back and may be run again (SQLite never reports it).
public protocol SQLDatabase: Sendable {
    /// Runs statements and discards any rows they return.
    ///
    /// Without bindings `sql` may hold several statements separated by `;`
    /// (a script, such as a migration step); with bindings it must hold one.
    /// - Parameters:
    ///   - sql: the statement text with `?` placeholders.
    ///   - bindings: one value per placeholder.
    /// - Returns: the changes and the last inserted rowid, read together with the statement.
    /// - Throws: ``SQLError``.
    @discardableResult
    func execute(_ sql: String, _ bindings: [SQLValue]) throws -> SQLExecution

    /// Runs a query and collects its rows.
    /// - Parameters:
    ///   - sql: one statement with `?` placeholders.
    ///   - bindings: one value per placeholder.
    /// - Returns: the rows, in the order the statement produces them.
    /// - Throws: ``SQLError``.
    func query(_ sql: String, _ bindings: [SQLValue]) throws -> [SQLRow]

    /// Runs a query and hands each row to `body` as it is read, without
    /// collecting them: for results too large to hold at once.
    ///
    /// The connection is held until the last row, so `body` should be quick;
    /// it may run other statements on the same database. To stop early,
    /// throw from `body` (the error is rethrown unchanged).
    /// - Parameters:
    ///   - sql: one statement with `?` placeholders.
    ///   - bindings: one value per placeholder.
    ///   - body: called once per row.
    /// - Throws: ``SQLError``, or what `body` throws.
    func forEachRow(_ sql: String, _ bindings: [SQLValue], _ body: (SQLRow) throws -> Void) throws

    /// Runs `body` in a transaction (`BEGIN IMMEDIATE`; nested calls become
    /// savepoints): commits when it returns, rolls back when it throws.
    /// - Parameter body: the work; it uses this database for its statements.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws (after rolling back), or ``SQLError`` when
    ///   the transaction cannot begin (``SQLError/busy(message:)`` after the
    ///   busy timeout) or commit.
    @discardableResult
    func transaction<T>(_ body: () throws -> T) throws -> T

    /// The rowid of the most recent successful `INSERT` on this connection.
    /// Exact inside ``transaction(_:)``; elsewhere another thread's insert may
    /// come between, so prefer the ``SQLExecution`` that ``execute(_:_:)`` returns.
    /// Engines without rowids (PostgreSQL) report 0: read a generated key
    /// with `INSERT … RETURNING`, which SQLite understands too.
    var lastInsertRowID: Int64 { get }

    /// Rows changed by the most recent statement on this connection. Exact
    /// inside ``transaction(_:)``; elsewhere prefer ``SQLExecution/changes``.
    var changes: Int { get }

    /// Brings the schema up to date: step `n` (zero-based) moves the schema
    /// from version `n` to `n + 1`.
    ///
    /// The version is kept in the database (SQLite: `PRAGMA user_version`;
    /// PostgreSQL: a table, `sharekit_schema_version`). The steps
    /// not yet applied run in one transaction together with the new version
    /// number, so a crash or a failing step leaves the previous version
    /// complete, and two processes migrating at once apply each step once.
    /// Only append steps; never edit or reorder the ones released.
    /// - Parameter steps: the migration scripts, oldest first; each may hold several statements.
    /// - Returns: the number of steps applied now (0 when the schema was current).
    /// - Throws: ``SQLError/schemaTooNew(version:known:)`` when the database
    ///   is at a later version than `steps.count`, or the error of a failing step.
    @discardableResult
    func migrate(_ steps: [String]) throws -> Int

    /// The dialect the engine speaks, for the statements that must differ
    /// (a schema's column types); everything else is written once.
    var dialect: SQLDialect { get }

    /// Closes the connection. Later calls throw ``SQLError/misuse(message:)``;
    /// closing again does nothing.
    /// - Throws: ``SQLError/misuse(message:)`` when called inside a
    ///   transaction or while rows are being read.
    func close() throws
}

extension SQLDatabase {
    /// Runs statements without parameters (several may be given, separated by `;`).
    /// - Parameter sql: the statement text.
    /// - Returns: the changes and the last inserted rowid.
    /// - Throws: ``SQLError``.
    @discardableResult
    public func execute(_ sql: String) throws -> SQLExecution {
        try execute(sql, [])
    }

    /// Runs a query without parameters and collects its rows.
    /// - Parameter sql: one statement.
    /// - Returns: the rows.
    /// - Throws: ``SQLError``.
    public func query(_ sql: String) throws -> [SQLRow] {
        try query(sql, [])
    }

    /// Runs a query without parameters and hands each row to `body`.
    /// - Parameters:
    ///   - sql: one statement.
    ///   - body: called once per row.
    /// - Throws: ``SQLError``, or what `body` throws.
    public func forEachRow(_ sql: String, _ body: (SQLRow) throws -> Void) throws {
        try forEachRow(sql, [], body)
    }
}
