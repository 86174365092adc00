import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitSQLInterface
import Synchronization

/// One user's `client_msg_id` with the fingerprint of the request that
/// carries it (docs/protocol.md, "Messages and idempotency").
///
/// Every use runs inside the posting transaction: look the key up, and
/// only if it is new, claim it and create the message. The claim is an
/// insert on the table's primary key: on SQLite write transactions take
/// turns, and on PostgreSQL (no turns, docs/adr/0042-row-locks-on-postgresql.md)
/// a second claim of the same key waits for the first one's transaction and
/// then finds its record, so of two requests with the same key, on any
/// processes, exactly one creates the message and the other is answered
/// like a replay.
struct IdempotencyKey {
    /// What a stored record points at.
    struct Stored {
        let messageID: String
        let threadID: String?
    }

    let username: String
    let clientMsgID: String
    let requestHash: String

    /// The header that marks an answer as a replay.
    static let replayHeader: HTTPFields = ["Idempotent-Replayed": "true"]

    /// The second (Unix time) of this process's last sweep of expired records.
    private static let lastSweep = Atomic<Int64>(0)

    /// The earlier request with this key, if one is still remembered.
    /// Records older than `idempotency_retention_seconds` count as absent,
    /// so an old key is free again (``claim(_:messageID:threadID:)`` takes
    /// it over); they are deleted once a second rather than on every request.
    /// - Returns: the original message (and thread) for the same request; nil for a new key.
    /// - Throws: `422 client_msg_id_conflict` when the key was used for a different request.
    func existing(_ server: ReferenceServer) throws -> Stored? {
        let cutoff = try sweepIfDue(server)
        guard
            let row = try server.db.query(
                """
                SELECT request_hash, message_id, thread_id FROM idempotency
                WHERE username = ? AND client_msg_id = ? AND created_at >= ?
                """,
                [.text(username), .text(clientMsgID), .integer(cutoff)]
            ).first
        else { return nil }
        guard try row.get("request_hash", as: String.self) == requestHash else {
            throw Problems.unprocessable(
                "client_msg_id_conflict",
                "client_msg_id \(clientMsgID) was already used for a different message; use a new one.")
        }
        return Stored(messageID: try row.get("message_id"), threadID: try row.get("thread_id", as: String?.self))
    }

    /// Deletes the expired records once a second.
    /// - Returns: the cutoff: records created before it are expired.
    private func sweepIfDue(_ server: ReferenceServer) throws -> Int64 {
        let now = server.now
        let cutoff = now - server.settings.idempotencyRetentionSeconds
        if Self.lastSweep.exchange(now, ordering: .relaxed) != now {
            try server.db.execute("DELETE FROM idempotency WHERE created_at < ?", [.integer(cutoff)])
        }
        return cutoff
    }

    /// Records this key for a message about to be created.
    /// - Returns: nil when the key is now ours; the earlier record when
    ///   another request claimed it first (answer as a replay).
    /// - Throws: `422 client_msg_id_conflict` when that earlier request differs.
    func claim(_ server: ReferenceServer, messageID: String, threadID: String?) throws -> Stored? {
        let now = server.now
        let cutoff = try sweepIfDue(server)
        // An expired record of the key is taken over, as if it had been deleted.
        let claimed = try server.db.execute(
            """
            INSERT INTO idempotency (username, client_msg_id, request_hash, message_id, thread_id, created_at)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(username, client_msg_id) DO UPDATE SET request_hash = excluded.request_hash,
                message_id = excluded.message_id, thread_id = excluded.thread_id, created_at = excluded.created_at
            WHERE idempotency.created_at < ?
            """,
            [
                .text(username), .text(clientMsgID), .text(requestHash), .text(messageID),
                threadID.map { .text($0) } ?? .null, .integer(now), .integer(cutoff),
            ])
        guard claimed.changes == 0 else { return nil }
        if let stored = try existing(server) { return stored }
        throw SQLError.busy(message: "an idempotency record appeared and vanished; retry")
    }
}
