import CShareKitSQLite
import Glibc
import ShareKitSQLInterface

/// The one connection that writes, lent to one thread at a time, and the
/// commit groups on it (group commit).
///
/// With `synchronous=FULL` a commit costs a flush to the disk, and SQLite
/// holds its write lock through it, so one connection commits at most as
/// often as the disk flushes. Group commit shares that flush: the first
/// transaction that finds no group open begins one (`BEGIN IMMEDIATE`), its
/// body runs in a savepoint, and when other threads are already waiting for
/// the connection it hands the connection on instead of committing. Each of
/// them runs its own body in its own savepoint of the same transaction; the
/// last one, which finds nobody waiting (or the group full), commits once
/// for all of them. Every member returns only after that commit: a
/// transaction that returns is durable, exactly as without groups.
///
/// - A member whose body throws is rolled back to its savepoint; the others
///   are not affected.
/// - When the commit fails, or SQLite rolls the whole transaction back by
///   itself after an error (disk full, I/O), every member of the group
///   throws: nothing of any of them was committed.
/// - Members run one after the other on the one connection, so a member sees
///   the writes of the members before it (they are ordered as if each had
///   committed alone); readers on other connections see none of a group
///   until it commits, and then all of it.
///
/// Whoever takes the connection while a group is open either joins it or,
/// for anything else (a read on this connection, a migration, closing),
/// commits it first, so a group never waits for a member that will not come.
final class WriteGroups: @unchecked Sendable {
    /// One transaction shared by several callers' transactions.
    final class Group {
        /// Transactions whose savepoints were released into it.
        var members = 0
        /// Set, with ``failure``, when the group's commit is over.
        var done = false
        /// Why nothing of the group was committed.
        var failure: (any Error)?
    }

    /// The database file, for messages.
    let path: String
    /// The most transactions one commit takes; 1 commits every transaction alone.
    let limit: Int

    // Everything below is guarded by `mutex`, except `connection` and
    // `open`, which only the thread holding the connection (`owned`) touches.
    private var connection: Connection?
    private var open: Group?
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// Signalled when the connection is let go.
    private let released = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Broadcast when a group's commit is over.
    private let finished = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var owned = false
    private var owner = pthread_t()
    private var waiting = 0

    /// Takes the writing connection over.
    /// - Parameters:
    ///   - connection: the open connection.
    ///   - limit: the most transactions one commit takes (at least 1).
    init(connection: Connection, limit: Int) {
        self.connection = connection
        self.path = connection.path
        self.limit = max(1, limit)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(released, nil)
        pthread_cond_init(finished, nil)
    }

    deinit {
        pthread_cond_destroy(finished)
        pthread_cond_destroy(released)
        pthread_mutex_destroy(mutex)
        finished.deallocate()
        released.deallocate()
        mutex.deallocate()
    }

    /// Whether the calling thread holds the connection: it is inside a
    /// transaction body (or a row handler on this connection), so its
    /// statements belong to that transaction.
    var isHeldByCurrentThread: Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return owned && pthread_equal(owner, pthread_self()) != 0
    }

    // MARK: - Transactions

    /// Runs `body` as a transaction that becomes durable with its group's
    /// commit; nested inside a body on this thread it is a savepoint.
    /// - Parameter body: the work; its statements run on this connection.
    /// - Returns: what `body` returns, once the group is committed.
    /// - Throws: what `body` throws (its savepoint rolled back), or
    ///   ``SQLError`` when the group cannot begin or its commit fails.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        if isHeldByCurrentThread { return try held().transaction(body) }
        acquire()
        return try join(body)
    }

    /// Runs one statement outside any transaction: a statement that may
    /// write becomes a transaction of its own in the next group (and returns
    /// once committed); one that only reads runs after the open group's commit.
    /// - Parameters:
    ///   - sql: the statement (several, without bindings).
    ///   - bindings: its values.
    ///   - onRow: receives the rows; nil discards them.
    /// - Returns: the changes and last inserted rowid.
    /// - Throws: ``SQLError``, or what `onRow` throws.
    func statement(_ sql: String, _ bindings: [SQLValue], onRow: ((SQLRow) throws -> Void)?) throws
        -> SQLExecution
    {
        if isHeldByCurrentThread { return try held().run(sql, bindings, onRow: onRow) }
        acquire()
        guard let connection else {
            release()
            throw closed()
        }
        if connection.isReadOnly(sql) {
            defer { release() }
            commitOpenGroup(connection)
            return try connection.run(sql, bindings, onRow: onRow)
        }
        return try join { try connection.run(sql, bindings, onRow: onRow) }
    }

    /// Runs `body` with the connection to itself, after the open group's
    /// commit (for migrations, schema reads, closing).
    /// - Parameter body: the work.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws; ``SQLError/misuse(message:)`` when closed.
    func exclusive<T>(_ body: (Connection) throws -> T) throws -> T {
        if isHeldByCurrentThread { return try body(try held()) }
        acquire()
        defer { release() }
        guard let connection else { throw closed() }
        commitOpenGroup(connection)
        return try body(connection)
    }

    /// Commits what is open and closes the connection; closing again does nothing.
    /// - Throws: ``SQLError/misuse(message:)`` inside a transaction or a row handler on this thread.
    func close() throws {
        if isHeldByCurrentThread {
            throw SQLError.misuse(message: "cannot close \(path) inside a transaction or while reading rows")
        }
        acquire()
        defer { release() }
        guard let connection else { return }
        commitOpenGroup(connection)
        connection.close()
        self.connection = nil
    }

    // MARK: - Groups

    /// The connection of the thread that holds it.
    private func held() throws -> Connection {
        guard let connection else { throw closed() }
        return connection
    }

    /// Runs `body` as a member of the open group (opening one when none is),
    /// then hands the connection on or commits. Called holding the connection.
    private func join<T>(_ body: () throws -> T) throws -> T {
        guard let connection else {
            release()
            throw closed()
        }
        let group: Group
        if let current = open {
            group = current
        } else {
            do {
                try connection.beginGroup()
            } catch {
                release()
                throw error
            }
            group = Group()
            open = group
        }
        let outcome: Result<T, any Error>
        do {
            outcome = .success(try connection.transaction(body))
        } catch {
            outcome = .failure(error)
        }
        if connection.isAutocommit {
            // SQLite rolled the group's transaction back by itself: nothing
            // of its members is kept. This member has its own error (its
            // body's, or the one its commit raised).
            connection.groupRolledBack()
            open = nil
            finish(group, failure: Self.lost(cause: outcome))
            release()
            return try outcome.get()
        }
        if case .success = outcome { group.members += 1 }
        pthread_mutex_lock(mutex)
        let handOn = waiting > 0 && group.members < limit
        if handOn { owned = false }
        pthread_mutex_unlock(mutex)
        if handOn {
            pthread_cond_signal(released)
            let value = try outcome.get()
            try awaitCommit(of: group)
            return value
        }
        let failure = commit(group, connection)
        release()
        let value = try outcome.get()
        if let failure { throw failure }
        return value
    }

    /// Commits the open group, if any, for its members; they learn the outcome.
    private func commitOpenGroup(_ connection: Connection) {
        if let group = open { _ = commit(group, connection) }
    }

    /// Commits `group` and tells its members.
    /// - Returns: the failure, nil when the group is durable.
    private func commit(_ group: Group, _ connection: Connection) -> (any Error)? {
        open = nil
        var failure: (any Error)?
        do {
            try connection.commitGroup()
        } catch {
            failure = error
        }
        finish(group, failure: failure)
        return failure
    }

    private func finish(_ group: Group, failure: (any Error)?) {
        pthread_mutex_lock(mutex)
        group.done = true
        group.failure = failure
        pthread_mutex_unlock(mutex)
        pthread_cond_broadcast(finished)
    }

    private func awaitCommit(of group: Group) throws {
        pthread_mutex_lock(mutex)
        while !group.done { pthread_cond_wait(finished, mutex) }
        let failure = group.failure
        pthread_mutex_unlock(mutex)
        if let failure { throw failure }
    }

    /// The error the other members of a group get when SQLite rolled it back.
    private static func lost<T>(cause: Result<T, any Error>) -> any Error {
        if case .failure(let error as SQLError) = cause {
            switch error {
            case .full, .io, .busy, .corrupt, .readOnly: return error
            default: break
            }
        }
        return SQLError.io(
            code: SQLITE_ABORT,
            message: "the transaction was rolled back with others committed together, after another one's error; "
                + "nothing was committed")
    }

    // MARK: - Holding the connection

    private func acquire() {
        pthread_mutex_lock(mutex)
        if owned {
            waiting += 1
            while owned { pthread_cond_wait(released, mutex) }
            waiting -= 1
        }
        owned = true
        owner = pthread_self()
        pthread_mutex_unlock(mutex)
    }

    private func release() {
        pthread_mutex_lock(mutex)
        owned = false
        let wake = waiting > 0
        pthread_mutex_unlock(mutex)
        if wake { pthread_cond_signal(released) }
    }

    private func closed() -> SQLError {
        .misuse(message: "the database \(path) is closed")
    }
}
