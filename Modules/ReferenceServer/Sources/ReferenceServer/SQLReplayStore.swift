import ShareKitDPoPInterface
import ShareKitSQLInterface
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// DPoP `jti` replay detection in the server's database, so a proof
/// replayed after a restart, or to a second server process on the same
/// database, is still refused.
///
/// The server never lets the verifier write here directly: it holds each
/// record back (``PendingReplayRecord``) and writes it in the request's own
/// transaction (createMessage) or in one of its own right after the
/// verifier accepted the proof, so that a database error reaches the route
/// as itself. Without a record being collected (another user of this
/// store), a `jti` is recorded here, in its own transaction.
struct SQLReplayStore: DPoPReplayStore {
    let db: any SQLDatabase

    func recordFirstUse(of key: String, now: Int64, expiresAt: Int64) throws -> Bool {
        if let pending = PendingReplayRecord.collecting {
            // Deferred to the request's transaction, whose first statement
            // it is: a replay is refused there, before the request changes anything.
            pending.entry = PendingReplayRecord.Entry(key: key, now: now, expiresAt: expiresAt)
            return true
        }
        return try db.transaction { try Self.insert(db, key: key, now: now, expiresAt: expiresAt) }
    }

    /// The second (Unix time) of this process's last sweep of expired entries.
    private static let lastSweep = Atomic<Int64>(0)

    /// Records `key`, in the caller's transaction. An expired entry of the
    /// same key counts as absent (it is replaced), so sweeping the expired
    /// ones once a second rather than on every request changes no answer.
    /// - Returns: false when the key is already recorded and not expired: a replay.
    static func insert(_ db: any SQLDatabase, key: String, now: Int64, expiresAt: Int64) throws -> Bool {
        try sweepIfDue(db, now: now)
        let inserted = try db.execute(insertStatement, [.text(key), .integer(expiresAt), .integer(now)])
        return inserted.changes == 1
    }

    /// Records `key` as ``insert(_:key:now:expiresAt:)`` does and runs
    /// `read`; on PostgreSQL in one statement (one round trip), whose
    /// data-modifying `WITH` PostgreSQL runs to completion whatever the
    /// query reads.
    /// - Returns: false (and no rows) for a replay; else true and the rows of `read`.
    static func insert(_ db: any SQLDatabase, key: String, now: Int64, expiresAt: Int64, reading read: Access.Read)
        throws -> (first: Bool, rows: [SQLRow])
    {
        guard db.dialect == .postgresql else {
            guard try insert(db, key: key, now: now, expiresAt: expiresAt) else { return (false, []) }
            return (true, try db.query(read.sql, read.bindings))
        }
        try sweepIfDue(db, now: now)
        // One row for the record's count, joined with the read's rows (if any);
        // `sharekit_found` tells a row of the read from the row without one.
        let rows = try db.query(
            """
            WITH recorded AS (\(insertStatement) RETURNING 1)
            SELECT (SELECT count(*) FROM recorded) AS sharekit_recorded, r.* FROM (SELECT 1) AS one
            LEFT JOIN (SELECT 1 AS sharekit_found, x.* FROM (\(read.sql)) AS x) AS r ON TRUE
            """, [.text(key), .integer(expiresAt), .integer(now)] + read.bindings)
        guard try rows.first?.get("sharekit_recorded", as: Int64.self) == 1 else { return (false, []) }
        return (true, try rows.filter { try $0.get("sharekit_found", as: Int64?.self) != nil })
    }

    /// The insert of a `jti` record, or of an expired one's replacement.
    private static let insertStatement = """
        INSERT INTO dpop_jti (key, expires_at) VALUES (?, ?)
        ON CONFLICT(key) DO UPDATE SET expires_at = excluded.expires_at WHERE dpop_jti.expires_at < ?
        """

    /// Deletes the expired records, once a second.
    private static func sweepIfDue(_ db: any SQLDatabase, now: Int64) throws {
        if lastSweep.exchange(now, ordering: .relaxed) != now {
            try db.execute("DELETE FROM dpop_jti WHERE expires_at < ?", [.integer(now)])
        }
    }
}

/// The `jti` record of a request's proof, held back so that it is written in
/// the request's own transaction: one transaction (and one share of a
/// commit) per request instead of two.
///
/// The insert is the first statement of the request's transaction, so a
/// replayed proof (recorded before, or by another request with the same
/// proof at the same time) is answered as a replay before the request
/// changes anything, and its transaction is rolled back. Whatever way the
/// request ends, the `jti` is recorded before it is answered: when the
/// route's transaction did not commit (the route threw before it, or
/// inside it), ``settle(_:_:)`` records it alone, as the verifier would have.
final class PendingReplayRecord {
    /// What the verifier asked to record.
    struct Entry {
        let key: String
        let now: Int64
        let expiresAt: Int64
    }

    /// Set by ``SQLReplayStore`` during ``collect(_:)``.
    fileprivate(set) var entry: Entry?
    /// Whether a transaction holding the record has committed.
    private var committed = false

    /// The record being collected on this thread (the verifier runs
    /// synchronously on the request's thread), if any.
    fileprivate static var collecting: PendingReplayRecord? {
        pthread_getspecific(key).map { Unmanaged<PendingReplayRecord>.fromOpaque($0).takeUnretainedValue() }
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Runs `verify` (the proof verification) with the `jti` record held back.
    /// - Returns: what `verify` returns.
    /// - Throws: what `verify` throws.
    func collect<T, E: Error>(_ verify: () throws(E) -> T) throws(E) -> T {
        let previous = pthread_getspecific(Self.key)
        pthread_setspecific(Self.key, Unmanaged.passUnretained(self).toOpaque())
        defer { pthread_setspecific(Self.key, previous) }
        return try verify()
    }

    /// Runs `body` in a transaction whose first statement records the `jti`
    /// and runs `read` (one round trip on PostgreSQL), handing `body` its rows.
    /// - Returns: what `body` returns, once committed.
    /// - Throws: the replay challenge when another request recorded the same
    ///   `jti` first; what `body` throws; `SQLError`.
    func transaction<T>(_ server: ReferenceServer, reading read: Access.Read, _ body: ([SQLRow]) throws -> T)
        throws -> T
    {
        let value = try server.db.transaction {
            if let entry, !committed {
                let (first, rows) = try SQLReplayStore.insert(
                    server.db, key: entry.key, now: entry.now, expiresAt: entry.expiresAt, reading: read)
                guard first else { throw Self.replayed(server) }
                return try body(rows)
            }
            return try body(try server.db.query(read.sql, read.bindings))
        }
        committed = true
        return value
    }

    /// Runs `body` in a transaction whose first statement records the `jti`.
    /// - Returns: what `body` returns, once committed.
    /// - Throws: the replay challenge when another request recorded the same
    ///   `jti` first; what `body` throws; `SQLError`.
    func transaction<T>(_ server: ReferenceServer, _ body: () throws -> T) throws -> T {
        let value = try server.db.transaction {
            if let entry, !committed {
                guard try SQLReplayStore.insert(server.db, key: entry.key, now: entry.now, expiresAt: entry.expiresAt)
                else { throw Self.replayed(server) }
            }
            return try body()
        }
        committed = true
        return value
    }

    /// Runs a route's work with a new record held back for it
    /// (``settle(_:_:)``): `work` authenticates with it and writes in its
    /// ``transaction(_:_:)``.
    /// - Returns: the work's answer.
    /// - Throws: the replay challenge, or what `work` throws.
    static func settled<T>(_ server: ReferenceServer, _ work: (PendingReplayRecord) throws -> T) throws -> T {
        let record = PendingReplayRecord()
        return try record.settle(server) { try work(record) }
    }

    /// Runs a route's work and makes sure the `jti` is recorded before the
    /// answer, by the work's ``transaction(_:_:)`` or, failing that, alone.
    /// - Parameters:
    ///   - server: the server.
    ///   - work: the route's work after authentication.
    /// - Returns: the work's answer.
    /// - Throws: the replay challenge when the `jti` turns out to be
    ///   recorded by another request; else what `work` throws.
    func settle<T>(_ server: ReferenceServer, _ work: () throws -> T) throws -> T {
        let outcome = Result { try work() }
        if let entry, !committed {
            let first = try server.db.transaction {
                try SQLReplayStore.insert(server.db, key: entry.key, now: entry.now, expiresAt: entry.expiresAt)
            }
            committed = true
            guard first else { throw Self.replayed(server) }
        }
        return try outcome.get()
    }

    /// Records the `jti` at once, in a transaction of its own, for a
    /// request whose route has no transaction to carry it; does nothing
    /// when it is recorded already.
    /// - Parameter tokenEndpoint: whether a replay is answered as at a token
    ///   endpoint (an OAuth `400`).
    /// - Throws: the replay challenge when another request recorded the same
    ///   `jti` first; `SQLError` when the database cannot take the record.
    func recordNow(_ server: ReferenceServer, tokenEndpoint: Bool) throws {
        guard let entry, !committed else { return }
        let first = try server.db.transaction {
            try SQLReplayStore.insert(server.db, key: entry.key, now: entry.now, expiresAt: entry.expiresAt)
        }
        committed = true
        guard first else { throw Self.replayed(server, tokenEndpoint: tokenEndpoint) }
    }

    /// The answer to a replayed proof, as the verifier gives it.
    private static func replayed(_ server: ReferenceServer, tokenEndpoint: Bool = false) -> ProblemResponse {
        let error = DPoPError.replayed
        return Authenticator.challenge(
            server, code: error.oauthErrorCode ?? "invalid_dpop_proof", detail: error.description,
            tokenEndpoint: tokenEndpoint, nonce: error.nonceToSend)
    }
}
