/// Settings of an ``SQLiteDatabase``, fixed when it is opened.
public struct SQLiteConfiguration: Sendable, Hashable {
    /// Durability of commits; ``SQLiteSynchronous/full`` by default.
    public var synchronous: SQLiteSynchronous
    /// How long a statement waits for a lock that another process holds
    /// before it fails with `SQLError.busy`; 5 seconds by default.
    public var busyTimeout: Duration
    /// How many prepared statements the connection keeps for reuse, keyed by
    /// their SQL text; 0 prepares every statement afresh.
    public var statementCacheCapacity: Int
    /// How many reading connections are kept for statements outside a
    /// transaction that only read (more open while more threads read at
    /// once); 0, the default, runs every statement on the one writing
    /// connection. Readers cost memory (a page cache each) and let reads run
    /// while a commit flushes: for servers with many threads. A temporary
    /// table belongs to the connection that made it: with readers, make and
    /// read it inside one transaction.
    public var readers: Int
    /// The most transactions that share one commit (group commit, see
    /// ``SQLiteDatabase``); 1 commits each transaction alone. 64 by default.
    public var groupCommitLimit: Int

    /// Makes a configuration: no reading connections, groups of up to 64 transactions.
    /// - Parameters:
    ///   - synchronous: durability of commits.
    ///   - busyTimeout: the longest wait for another process's lock (whole milliseconds).
    ///   - statementCacheCapacity: the number of prepared statements kept.
    public init(
        synchronous: SQLiteSynchronous = .full, busyTimeout: Duration = .seconds(5), statementCacheCapacity: Int = 64
    ) {
        self.init(
            synchronous: synchronous, busyTimeout: busyTimeout, statementCacheCapacity: statementCacheCapacity,
            readers: 0)
    }

    /// Makes a configuration with reading connections.
    /// - Parameters:
    ///   - synchronous: durability of commits.
    ///   - busyTimeout: the longest wait for another process's lock (whole milliseconds).
    ///   - statementCacheCapacity: the number of prepared statements kept (per connection).
    ///   - readers: the reading connections kept; 0 reads on the writing connection.
    ///   - groupCommitLimit: the most transactions one commit takes (at least 1).
    public init(
        synchronous: SQLiteSynchronous = .full, busyTimeout: Duration = .seconds(5), statementCacheCapacity: Int = 64,
        readers: Int, groupCommitLimit: Int = 64
    ) {
        self.synchronous = synchronous
        self.busyTimeout = busyTimeout
        self.statementCacheCapacity = max(0, statementCacheCapacity)
        self.readers = max(0, readers)
        self.groupCommitLimit = max(1, groupCommitLimit)
    }

    /// The busy timeout in whole milliseconds, as `sqlite3_busy_timeout` takes it.
    var busyTimeoutMilliseconds: Int32 {
        let (seconds, attoseconds) = busyTimeout.components
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return seconds < 0 ? 0 : Int32.max }
        return Int32(clamping: max(0, milliseconds + attoseconds / 1_000_000_000_000_000))
    }
}
