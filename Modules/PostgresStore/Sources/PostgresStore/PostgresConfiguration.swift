/// Settings of a ``PostgresDatabase``, fixed when it connects.
public struct PostgresConfiguration: Sendable, Hashable {
    /// The advisory lock key of ``PostgresIsolation/exclusive`` unless
    /// another is given: every process of one deployment must use the same.
    public static let defaultExclusiveLockKey: Int64 = 0x5348_4B54_5800_0001

    /// How ``PostgresDatabase/transaction(_:)`` isolates a transaction;
    /// ``PostgresIsolation/exclusive`` by default.
    public var isolation: PostgresIsolation
    /// How long a statement waits for a lock another connection holds (a
    /// row, a table, the exclusive transaction lock) before it fails with
    /// `SQLError.busy`: PostgreSQL's `lock_timeout`; 5 seconds by default.
    public var lockTimeout: Duration
    /// How long connecting may take before it fails; 10 seconds by default
    /// (libpq counts whole seconds, at least 2). A `connect_timeout` in the
    /// connection string wins.
    public var connectTimeout: Duration
    /// How many prepared statements the connection keeps, keyed by their
    /// SQL text and parameter types; 0 prepares none (every statement is
    /// parsed afresh).
    public var statementCacheCapacity: Int
    /// The name PostgreSQL shows for the connection (`pg_stat_activity`);
    /// an `application_name` in the connection string wins.
    public var applicationName: String
    /// The advisory lock that ``PostgresIsolation/exclusive`` transactions take.
    public var exclusiveLockKey: Int64
    /// The most ``PostgresIsolation/exclusive`` transactions of different
    /// threads that share one PostgreSQL transaction and one commit (group
    /// commit); 64 by default, 1 (or less) commits each alone.
    public var groupCommitLimit = 64
    /// How many times a ``PostgresIsolation/rowLocks`` transaction is run
    /// again after PostgreSQL ended it with a deadlock or a serialization
    /// failure, before that error reaches the caller; 8 by default.
    public var serializationRetries = 8
    /// Whether ``PostgresDatabase/query(_:_:)`` of a single read statement
    /// (`SELECT`, `VALUES`, `TABLE`, `SHOW`) outside a transaction runs on
    /// a second connection of its own; false by default. On the one
    /// connection such a read must first commit the open commit group (it
    /// may not see the group's uncommitted work), which keeps groups small
    /// when every request reads before it writes; on its own connection it
    /// sees what is committed, waits for no transaction of this process,
    /// and lets the group grow. Costs one more PostgreSQL connection.
    public var separateReadConnection = false

    /// Makes a configuration.
    /// - Parameters:
    ///   - isolation: how transactions are isolated.
    ///   - lockTimeout: the longest wait for another connection's lock (whole milliseconds).
    ///   - connectTimeout: the longest wait for the connection (whole seconds).
    ///   - statementCacheCapacity: the number of prepared statements kept.
    ///   - applicationName: the connection's name in the server's views.
    ///   - exclusiveLockKey: the advisory lock of exclusive transactions.
    public init(
        isolation: PostgresIsolation = .exclusive, lockTimeout: Duration = .seconds(5),
        connectTimeout: Duration = .seconds(10), statementCacheCapacity: Int = 64,
        applicationName: String = "sharekit", exclusiveLockKey: Int64 = Self.defaultExclusiveLockKey
    ) {
        self.isolation = isolation
        self.lockTimeout = lockTimeout
        self.connectTimeout = connectTimeout
        self.statementCacheCapacity = max(0, statementCacheCapacity)
        self.applicationName = applicationName
        self.exclusiveLockKey = exclusiveLockKey
    }

    /// The lock timeout in whole milliseconds, at least 1 (0 would mean "wait forever").
    var lockTimeoutMilliseconds: Int64 {
        let (seconds, attoseconds) = lockTimeout.components
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return seconds < 0 ? 1 : Int64(Int32.max) }
        return min(max(1, milliseconds + attoseconds / 1_000_000_000_000_000), Int64(Int32.max))
    }

    /// The connect timeout in whole seconds, as libpq's `connect_timeout` takes it.
    var connectTimeoutSeconds: Int64 {
        min(max(2, connectTimeout.components.seconds), Int64(Int32.max))
    }
}
