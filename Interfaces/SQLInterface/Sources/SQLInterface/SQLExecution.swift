/// What a statement changed, taken together with the statement, so that
/// another thread's statement cannot slip in between (unlike reading
/// ``SQLDatabase/lastInsertRowID`` afterwards).
public struct SQLExecution: Sendable, Hashable {
    /// Rows inserted, updated or deleted by the statement (the last one, for a script).
    public let changes: Int
    /// The rowid of the most recent successful `INSERT` on the connection
    /// (0 on engines without rowids; use `INSERT … RETURNING` there).
    public let lastInsertRowID: Int64

    /// Makes a result.
    /// - Parameters:
    ///   - changes: rows changed.
    ///   - lastInsertRowID: the most recent rowid inserted.
    public init(changes: Int, lastInsertRowID: Int64) {
        self.changes = changes
        self.lastInsertRowID = lastInsertRowID
    }
}
