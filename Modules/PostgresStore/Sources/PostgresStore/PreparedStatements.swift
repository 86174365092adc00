/// The names of the statements a connection has prepared on the server,
/// keyed by SQL text and parameter types, so a statement that runs often is
/// parsed and planned once.
///
/// Holds at most `capacity` names and hands back the least recently used
/// one to deallocate when it is full. Not thread-safe (used under the lock).
struct PreparedStatements {
    /// The most statements kept.
    let capacity: Int
    private var entries: [String: (name: String, lastUsed: UInt64)] = [:]
    private var clock: UInt64 = 0
    private var counter = 0

    /// Makes an empty cache.
    /// - Parameter capacity: the most statements kept; 0 keeps none.
    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The server-side name of a prepared statement, marked as just used.
    /// - Parameter key: the statement's text and parameter types.
    /// - Returns: the name, or nil when it is not prepared.
    mutating func name(for key: String) -> String? {
        guard let entry = entries[key] else { return nil }
        clock += 1
        entries[key] = (entry.name, clock)
        return entry.name
    }

    /// Picks a name for a statement about to be prepared.
    /// - Parameter key: the statement's text and parameter types.
    /// - Returns: the new name, and the name of a statement to deallocate
    ///   first when the cache was full.
    mutating func add(_ key: String) -> (name: String, evicted: String?) {
        var evicted: String?
        if entries.count >= capacity, let oldest = entries.min(by: { $0.value.lastUsed < $1.value.lastUsed }) {
            evicted = oldest.value.name
            entries[oldest.key] = nil
        }
        counter += 1
        clock += 1
        let name = "sharekit_\(counter)"
        entries[key] = (name, clock)
        return (name, evicted)
    }

    /// Forgets one statement.
    /// - Parameter key: the statement's text and parameter types.
    /// - Returns: its name, to deallocate.
    mutating func remove(_ key: String) -> String? {
        entries.removeValue(forKey: key)?.name
    }

    /// Forgets every statement (after `DEALLOCATE ALL`, or a new session
    /// that has none).
    mutating func removeAll() {
        entries = [:]
    }
}
