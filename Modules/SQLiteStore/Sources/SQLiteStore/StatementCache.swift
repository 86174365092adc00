/// The prepared statements of a connection, keyed by their SQL text, so
/// statements that run often are parsed once.
///
/// Holds at most `capacity` statements and evicts the least recently used
/// one that is not being stepped. Not thread-safe (used under the lock).
struct StatementCache {
    /// The most statements kept.
    let capacity: Int
    private var statements: [String: PreparedStatement] = [:]
    private var clock: UInt64 = 0

    /// Makes an empty cache.
    /// - Parameter capacity: the most statements kept; 0 keeps none.
    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Hands out the cached statement for `sql`, marked in use.
    /// - Parameter sql: the statement text.
    /// - Returns: the statement, or nil when none is cached or the cached one
    ///   is in use (a nested run of the same SQL prepares its own).
    mutating func checkOut(_ sql: String) -> PreparedStatement? {
        guard let statement = statements[sql], !statement.inUse else { return nil }
        clock += 1
        statement.lastUsed = clock
        statement.inUse = true
        return statement
    }

    /// Takes a newly prepared statement into the cache, marked in use.
    /// - Parameters:
    ///   - statement: the statement, prepared from exactly `sql`.
    ///   - sql: its text.
    /// - Returns: false when it was not taken (no room, or `sql` is cached
    ///   already); the caller then finalizes it after use.
    mutating func insert(_ statement: PreparedStatement, for sql: String) -> Bool {
        guard capacity > 0, statements[sql] == nil else { return false }
        if statements.count >= capacity {
            guard
                let (oldSQL, oldest) = statements.filter({ !$0.value.inUse }).min(by: {
                    $0.value.lastUsed < $1.value.lastUsed
                })
            else { return false }
            oldest.finalize()
            statements[oldSQL] = nil
        }
        clock += 1
        statement.lastUsed = clock
        statement.inUse = true
        statements[sql] = statement
        return true
    }

    /// Returns a statement after use: reset, bindings cleared, free again.
    /// - Parameter statement: a statement from ``checkOut(_:)`` or ``insert(_:for:)``.
    func checkIn(_ statement: PreparedStatement) {
        statement.reset()
        statement.inUse = false
    }

    /// Finalizes every statement (before the connection closes).
    mutating func removeAll() {
        for statement in statements.values { statement.finalize() }
        statements = [:]
    }
}
