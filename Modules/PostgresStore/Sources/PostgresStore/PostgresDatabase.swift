import Foundation
public import ShareKitSQLInterface

/// An ``ShareKitSQLInterface/SQLDatabase`` on a PostgreSQL server, through libpq:
/// one connection, shared by every thread like `SQLiteDatabase`'s (and a
/// second one for reads outside transactions with
/// ``PostgresConfiguration/separateReadConnection``).
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
/// ## Group commit
/// Exclusive and row-lock transactions of threads that wait for the connection share
/// one PostgreSQL transaction and one commit (up to
/// ``PostgresConfiguration/groupCommitLimit``): each runs in a savepoint
/// of it, in turn, and returns only after the shared commit; one whose body
/// throws is undone alone. Any other call commits the open group first.
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
    // Guards `waiting` and `owner`, read by threads not holding `lock`.
    private let gate = NSLock()
    /// Threads in ``acquire()`` waiting for `lock`.
    private var waiting = 0
    /// The thread that took `lock` through ``acquire()``.
    private var owner: pthread_t?
    /// The open commit group: transactions of several threads sharing one
    /// PostgreSQL transaction and one commit (guarded by `lock`).
    private var group: CommitGroup?
    /// The libpq string the reading connection connects with.
    private let connectionString: String
    // Guards `reader`. Never taken while `lock` is wanted: a read on the
    // reader runs no other statement.
    private let readerLock = NSLock()
    /// The connection of reads outside a transaction
    /// (``PostgresConfiguration/separateReadConnection``), made on first use.
    private var reader: Connection?
    /// Whether ``close()`` ran (no reading connection is made after it).
    private var readerClosed = false

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
        self.connectionString = connection
        self.connection = try Connection(connectionString: connection, configuration: configuration)
    }

    /// Runs statements and discards their rows (see ``ShareKitSQLInterface/SQLDatabase/execute(_:_:)``).
    /// - Parameters:
    ///   - sql: one statement with `?` placeholders, or several without.
    ///   - bindings: one value per placeholder.
    /// - Returns: the rows changed; the rowid is always 0.
    /// - Throws: ``ShareKitSQLInterface/SQLError``.
    @discardableResult
    public func execute(_ sql: String, _ bindings: [SQLValue]) throws -> SQLExecution {
        try withConnection { try $0.run(sql, bindings, mode: .discard).0 }
    }

    /// Runs a query and collects its rows (see ``ShareKitSQLInterface/SQLDatabase/query(_:_:)``).
    /// - Parameters:
    ///   - sql: one statement with `?` placeholders.
    ///   - bindings: one value per placeholder.
    /// - Returns: the rows.
    /// - Throws: ``ShareKitSQLInterface/SQLError``.
    public func query(_ sql: String, _ bindings: [SQLValue]) throws -> [SQLRow] {
        if configuration.separateReadConnection, !holdsLock(), Self.isSingleRead(sql) {
            return try readerLock.withLock {
                guard !readerClosed else { throw closedError }
                if reader == nil {
                    reader = try Connection(connectionString: connectionString, configuration: configuration)
                }
                return try reader!.run(sql, bindings, mode: .collect).1
            }
        }
        return try withConnection { try $0.run(sql, bindings, mode: .collect).1 }
    }

    /// Whether `sql` is one statement that only reads, by its first word
    /// (what may run on the reading connection).
    private static func isSingleRead(_ sql: String) -> Bool {
        guard let statements = try? SQLText.statements(in: sql), statements.count == 1 else { return false }
        return statements[0].isRead
    }

    /// Runs a query and hands each row to `body` as it arrives (see
    /// ``ShareKitSQLInterface/SQLDatabase/forEachRow(_:_:_:)``). When `body` runs
    /// another statement, the rest of the result is read into memory first;
    /// when it throws, the rest is read and dropped (use `LIMIT` to stop a
    /// large result early).
    /// - Parameters:
    ///   - sql: one statement with `?` placeholders.
    ///   - bindings: one value per placeholder.
    ///   - body: called once per row; may use this database.
    /// - Throws: ``ShareKitSQLInterface/SQLError``, or what `body` throws.
    public func forEachRow(_ sql: String, _ bindings: [SQLValue], _ body: (SQLRow) throws -> Void) throws {
        // The connection takes an escaping handler in its mode; `body` is
        // used only during the call.
        try withoutActuallyEscaping(body) { body in
            _ = try withConnection { try $0.run(sql, bindings, mode: .stream(body)) }
        }
    }

    /// Runs `body` in a transaction with ``PostgresConfiguration/isolation``;
    /// a nested call is a savepoint (see ``ShareKitSQLInterface/SQLDatabase/transaction(_:)``).
    /// - Parameter body: the work; it uses this database.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws (after rolling back), or ``ShareKitSQLInterface/SQLError``:
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
    /// - Throws: what `body` throws (after rolling back), or ``ShareKitSQLInterface/SQLError``
    ///   as ``transaction(_:)`` does.
    @discardableResult
    public func transaction<T>(isolation: PostgresIsolation, _ body: () throws -> T) throws -> T {
        if holdsLock() {
            // Nested, inside this thread's transaction or row handler: a savepoint.
            return try lock.withLock {
                guard let connection else { throw closedError }
                return try connection.transaction(isolation: isolation, body)
            }
        }
        guard isolation == .rowLocks else { return try outermost(isolation: isolation, body) }
        // Without a deployment-wide lock PostgreSQL may end a transaction
        // that lost a deadlock (or a serialization conflict); it was rolled
        // back whole, so running the body again is what the caller of an
        // exclusive transaction would have seen had it waited its turn.
        var retries = 0
        while true {
            do {
                return try outermost(isolation: isolation, body)
            } catch SQLError.serializationFailure(let message) {
                guard retries < configuration.serializationRetries else {
                    throw SQLError.serializationFailure(
                        message: "\(message) (the transaction was run \(retries + 1) times)")
                }
                retries += 1
            }
        }
    }

    /// One run of an outermost transaction: in a commit group for the
    /// isolations that share commits, else alone.
    private func outermost<T>(isolation: PostgresIsolation, _ body: () throws -> T) throws -> T {
        guard isolation == .exclusive || isolation == .rowLocks, configuration.groupCommitLimit > 1 else {
            return try withConnection { try $0.transaction(isolation: isolation, body) }
        }
        return try groupMember(isolation: isolation, body)
    }

    /// Runs `body` as a member of the open commit group, opening one when
    /// none is; hands the group on to a waiting thread instead of committing
    /// when one waits, and returns only after the group's commit.
    private func groupMember<T>(isolation: PostgresIsolation, _ body: () throws -> T) throws -> T {
        acquire()
        guard let connection else {
            release()
            throw closedError
        }
        let group: CommitGroup
        let outcome: Result<T, any Error>
        if let open = self.group, open.isolation != isolation {
            // A group shares one transaction and so one isolation.
            finishGroup()
        }
        if let open = self.group {
            // A later member runs in a savepoint of the group's transaction,
            // so its failure undoes its work alone.
            group = open
            group.members += 1
            do {
                outcome = .success(try connection.transaction(isolation: isolation, body))
            } catch {
                outcome = .failure(error)
            }
        } else {
            do {
                try connection.beginGroup(isolation: isolation)
            } catch {
                release()
                throw error
            }
            group = CommitGroup(isolation: isolation)
            group.members = 1
            // The first member needs no savepoint of its own (two round
            // trips under the lock): when it throws, the transaction holds
            // nothing else, and is rolled back whole.
            do {
                outcome = .success(try body())
            } catch {
                let ended = connection.doomedError
                connection.rollbackGroup()
                release()
                // A deadlock the body turned into an error of its own is
                // still the deadlock: the caller may run the body again.
                if let ended, ended.isSerializationFailure { throw ended }
                throw error
            }
            self.group = group
        }
        if let ended = connection.doomedError {
            // The whole transaction is over: every member of the group fails.
            connection.rollbackGroup()
            self.group = nil
            group.finish(.failure(ended))
            release()
            if case .failure(let error) = outcome, !ended.isSerializationFailure { throw error }
            // The body caught the error that ended the transaction and returned.
            throw ended
        }
        let waiting = gate.withLock { self.waiting }
        if waiting > 0, group.members < configuration.groupCommitLimit {
            // Another thread takes the connection next and commits, or hands on.
            release()
            let value = try outcome.get()
            try group.wait()
            return value
        }
        finishGroup()
        release()
        let value = try outcome.get()
        try group.wait()
        return value
    }

    /// Commits the open group, if any, and tells its members the outcome.
    /// Called with the lock held.
    private func finishGroup() {
        guard let group, let connection else { return }
        self.group = nil
        do {
            try connection.commitGroup()
            group.finish(.success(()))
        } catch let error as SQLError {
            group.finish(.failure(error))
        } catch {
            group.finish(.failure(.statement(message: "\(error)")))
        }
    }

    /// Always 0: PostgreSQL has no rowid. Read generated keys with `INSERT … RETURNING`.
    public var lastInsertRowID: Int64 { 0 }

    /// Always ``ShareKitSQLInterface/SQLDialect/postgresql``.
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
        lock.withLock { connection?.roundTrips ?? 0 } + readerLock.withLock { reader?.roundTrips ?? 0 }
    }

    /// Round trips of the reading connection alone
    /// (``PostgresConfiguration/separateReadConnection``).
    var readerRoundTrips: Int {
        readerLock.withLock { reader?.roundTrips ?? 0 }
    }

    /// Threads waiting for the connection (a group member seeing one hands on).
    var waitingThreads: Int {
        gate.withLock { waiting }
    }

    /// `COMMIT` messages this connection sent so far: fewer than the
    /// transactions when commit groups shared them.
    var commits: Int {
        lock.withLock { connection?.commits ?? 0 }
    }

    /// Applies the migration steps not yet applied, in one transaction (see
    /// ``ShareKitSQLInterface/SQLDatabase/migrate(_:)``). The version is kept in the
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
    /// - Throws: ``ShareKitSQLInterface/SQLError``.
    public func schemaVersion() throws -> Int {
        try withConnection { try $0.schemaVersion() }
    }

    /// Closes the connection; closing again does nothing.
    /// - Throws: `SQLError.misuse` inside a transaction or a row handler.
    public func close() throws {
        if !holdsLock() {
            acquire()
            finishGroup()
            release()
        }
        try lock.withLock {
            guard let connection else { return }
            guard connection.transactionDepth == 0, !connection.isReading else {
                throw SQLError.misuse(
                    message: "cannot close the PostgreSQL connection inside a transaction or while reading rows")
            }
            connection.close()
            self.connection = nil
        }
        readerLock.withLock {
            reader?.close()
            reader = nil
            readerClosed = true
        }
    }

    private var closedError: SQLError { .misuse(message: "the PostgreSQL connection is closed") }

    /// Runs `body` with the connection under the lock. A call that is not
    /// nested in this thread's own work first commits the open commit group,
    /// so it never runs inside (or sees the uncommitted work of) other threads'
    /// transactions, and no member waits for a member that will not come.
    private func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        if holdsLock() {
            return try lock.withLock {
                guard let connection else { throw closedError }
                return try body(connection)
            }
        }
        acquire()
        defer { release() }
        finishGroup()
        guard let connection else { throw closedError }
        return try body(connection)
    }

    /// Takes the lock as the outermost caller of this thread, counted as
    /// waiting meanwhile (a group member seeing a waiter hands on).
    private func acquire() {
        gate.withLock { waiting += 1 }
        lock.lock()
        gate.withLock {
            waiting -= 1
            owner = pthread_self()
        }
    }

    /// Gives the lock taken by ``acquire()`` back.
    private func release() {
        gate.withLock { owner = nil }
        lock.unlock()
    }

    /// Whether this thread holds the lock (its call is nested in its own).
    private func holdsLock() -> Bool {
        gate.withLock { owner.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }
}

/// The transactions of several threads that share one PostgreSQL
/// transaction and its commit; each member waits for ``finish(_:)``.
final class CommitGroup: @unchecked Sendable {
    /// The isolation of the group's transaction, which every member shares.
    let isolation: PostgresIsolation
    /// Members that ran (guarded by the database's lock).
    var members = 0
    private let condition = NSCondition()
    private var outcome: Result<Void, SQLError>?

    /// Makes an open group of the given isolation.
    init(isolation: PostgresIsolation) { self.isolation = isolation }

    /// Records the group's outcome and wakes its members.
    func finish(_ outcome: Result<Void, SQLError>) {
        condition.withLock {
            self.outcome = outcome
            condition.broadcast()
        }
    }

    /// Waits for the group's outcome.
    /// - Throws: the error that kept the group from committing.
    func wait() throws {
        let outcome = condition.withLock {
            while self.outcome == nil { condition.wait() }
            return self.outcome!
        }
        try outcome.get()
    }
}

extension SQLError {
    /// Whether PostgreSQL ended the transaction as a deadlock or
    /// serialization victim (run again, it may well succeed).
    var isSerializationFailure: Bool {
        if case .serializationFailure = self { return true }
        return false
    }
}
