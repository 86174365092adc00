/// How a transaction of ``PostgresDatabase`` is isolated from the
/// transactions of other connections (other threads' databases, other
/// processes).
public enum PostgresIsolation: Sendable, Hashable {
    /// One transaction at a time over the whole database: every
    /// transaction first takes one database-wide advisory lock
    /// (`pg_advisory_xact_lock`), held until it commits or rolls back, and
    /// runs at `READ COMMITTED` so that it sees everything committed before
    /// it got the lock. This is what `SQLDatabase` promises (SQLite's
    /// `BEGIN IMMEDIATE`): writers queue up front and a transaction never
    /// fails half way because another came first, so callers need no retry
    /// loop. A transaction waits for the lock up to
    /// ``PostgresConfiguration/lockTimeout`` and then fails with
    /// `SQLError.busy`. The default.
    case exclusive
    /// `READ COMMITTED` without any deployment-wide lock: transactions of
    /// every connection and process run at once, and the caller locks the
    /// rows its decisions rest on (`SELECT … FOR UPDATE`, unique keys with
    /// `ON CONFLICT`, conditional `UPDATE … WHERE`). Threads of one
    /// ``PostgresDatabase`` still share commits (group commit). When
    /// PostgreSQL ends a transaction with a deadlock or a serialization
    /// failure (SQLSTATE `40P01`, `40001`), ``PostgresDatabase`` runs the
    /// whole body again, up to ``PostgresConfiguration/serializationRetries``
    /// times, so callers keep the interface's "no retry loops"; a body must
    /// therefore change nothing but the database, or repeat its other
    /// effects harmlessly.
    case rowLocks
    /// `SERIALIZABLE`: transactions run concurrently, and PostgreSQL rolls
    /// back one that could not have run in some serial order; it fails with
    /// `SQLError.serializationFailure` (at any statement or at commit), and
    /// the caller runs the whole transaction again.
    case serializable
    /// `REPEATABLE READ`: one snapshot for the whole transaction; a row
    /// changed by a concurrent committed transaction cannot be updated
    /// (`SQLError.serializationFailure`), but write skew is possible.
    case repeatableRead
    /// `READ COMMITTED`: each statement sees what was committed before it
    /// started; concurrent updates of one row wait for each other. Only for
    /// callers that lock what they read (`SELECT … FOR UPDATE`).
    case readCommitted

    /// The `BEGIN` statement (and lock) that starts a transaction.
    /// - Parameter lockKey: the advisory lock key of ``exclusive``.
    func beginStatement(lockKey: Int64) -> String {
        switch self {
        case .exclusive:
            // One round trip: the lock is taken inside the transaction it ends with.
            "BEGIN ISOLATION LEVEL READ COMMITTED; SELECT pg_advisory_xact_lock(\(lockKey))"
        case .serializable: "BEGIN ISOLATION LEVEL SERIALIZABLE"
        case .repeatableRead: "BEGIN ISOLATION LEVEL REPEATABLE READ"
        case .readCommitted, .rowLocks: "BEGIN ISOLATION LEVEL READ COMMITTED"
        }
    }
}
