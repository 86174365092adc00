import Glibc
import ShareKitSQLInterface

/// Connections that only read, lent out for statements outside any
/// transaction, so reads run beside the writer (write-ahead logging lets
/// them) and see only what is committed: never the open transaction of a
/// commit group whose flush is still under way.
///
/// A statement is run here only when SQLite says it cannot write
/// (`sqlite3_stmt_readonly`); anything else is refused back to the caller,
/// which hands it to the writer, and the text is remembered so it is not
/// tried here again. Connections are opened when more are needed at once
/// than are idle, and at most `capacity` idle ones are kept.
final class ReaderPool: @unchecked Sendable {
    private struct State {
        var idle: [Connection] = []
        var closed = false
        /// Connections lent out, per thread (to refuse a close from a row handler).
        var lent: [pthread_t: Int] = [:]
        /// Statement texts known to write (bounded: cleared when full).
        var writes: Set<String> = []
    }

    /// The database file.
    let path: String
    /// Settings the connections are opened with.
    let configuration: SQLiteConfiguration
    /// The most idle connections kept open.
    let capacity: Int
    // Guards `state` (@unchecked Sendable rests on it); a lent connection
    // belongs to its borrower alone until it is given back.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var state = State()
    /// The most statement texts remembered as writes.
    private static let rememberedWrites = 256

    /// Makes an empty pool; connections open on first use.
    /// - Parameters:
    ///   - path: the database file (already created and prepared by the writer).
    ///   - configuration: the settings.
    ///   - capacity: the most idle connections kept.
    init(path: String, configuration: SQLiteConfiguration, capacity: Int) {
        self.path = path
        self.configuration = configuration
        self.capacity = capacity
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        for connection in state.idle { connection.close() }
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    private func withLock<T, E: Error>(_ body: (inout State) throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }

    /// Runs `sql` on a reading connection if it is one statement that only reads.
    /// - Parameters:
    ///   - sql: the statement.
    ///   - bindings: its values.
    ///   - onRow: receives the rows; nil discards them.
    /// - Returns: nil, having run nothing, when the statement may write.
    /// - Throws: ``SQLError``, or what `onRow` throws.
    func run(_ sql: String, _ bindings: [SQLValue], onRow: ((SQLRow) throws -> Void)?) throws -> SQLExecution? {
        if withLock({ $0.writes.contains(sql) }) { return nil }
        let connection = try borrow()
        defer { giveBack(connection) }
        guard let result = try connection.runIfReadOnly(sql, bindings, onRow: onRow) else {
            withLock { state in
                if state.writes.count >= Self.rememberedWrites { state.writes.removeAll() }
                state.writes.insert(sql)
            }
            return nil
        }
        return result
    }

    /// Whether the calling thread is reading rows on one of these connections now.
    var isLentToCurrentThread: Bool {
        let me = pthread_self()
        return withLock { $0.lent[me, default: 0] > 0 }
    }

    /// Closes the idle connections; the ones lent out close when they come back.
    func close() {
        let idle = withLock { state in
            state.closed = true
            defer { state.idle = [] }
            return state.idle
        }
        for connection in idle { connection.close() }
    }

    private func borrow() throws -> Connection {
        let me = pthread_self()
        let reused = try withLock { state throws(SQLError) -> Connection? in
            guard !state.closed else { throw SQLError.misuse(message: "the database \(path) is closed") }
            state.lent[me, default: 0] += 1
            return state.idle.popLast()
        }
        if let reused { return reused }
        do {
            return try Connection(path: path, configuration: configuration, role: .reader)
        } catch {
            withLock { Self.returned(me, &$0) }
            throw error
        }
    }

    private func giveBack(_ connection: Connection) {
        let me = pthread_self()
        let keep = withLock { state in
            Self.returned(me, &state)
            guard !state.closed, state.idle.count < capacity else { return false }
            state.idle.append(connection)
            return true
        }
        if !keep { connection.close() }
    }

    private static func returned(_ thread: pthread_t, _ state: inout State) {
        let count = state.lent[thread, default: 0] - 1
        state.lent[thread] = count > 0 ? count : nil
    }
}
