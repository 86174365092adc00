import HTTPServerInterface
import HTTPTypes
import SQLInterface

/// One user's `client_msg_id` with the fingerprint of the request that
/// carries it (docs/protocol.md, "Messages and idempotency").
///
/// Every use runs inside the posting transaction: look the key up, and
/// only if it is new, claim it and create the message. Transactions are
/// `BEGIN IMMEDIATE`, so two requests with the same key take turns and the
/// second finds the first one's record; the table's primary key is the
/// backstop should two writers ever interleave anyway (a duplicate on
/// ``claim(_:messageID:threadID:)`` is answered like a replay).
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

    /// The earlier request with this key, if one is still remembered.
    /// Records older than `idempotency_retention_seconds` are deleted first,
    /// so an old key is free again.
    /// - Returns: the original message (and thread) for the same request; nil for a new key.
    /// - Throws: `422 client_msg_id_conflict` when the key was used for a different request.
    func existing(_ server: ReferenceServer) throws -> Stored? {
        let cutoff = server.now - server.settings.idempotencyRetentionSeconds
        try server.db.execute("DELETE FROM idempotency WHERE created_at < ?", [.integer(cutoff)])
        guard
            let row = try server.db.query(
                "SELECT request_hash, message_id, thread_id FROM idempotency WHERE username = ? AND client_msg_id = ?",
                [.text(username), .text(clientMsgID)]
            ).first
        else { return nil }
        guard try row.get("request_hash", as: String.self) == requestHash else {
            throw Problems.unprocessable(
                "client_msg_id_conflict",
                "client_msg_id \(clientMsgID) was already used for a different message; use a new one.")
        }
        return Stored(messageID: try row.get("message_id"), threadID: try row.get("thread_id", as: String?.self))
    }

    /// Records this key for a message about to be created.
    /// - Returns: nil when the key is now ours; the earlier record when
    ///   another request claimed it first (answer as a replay).
    /// - Throws: `422 client_msg_id_conflict` when that earlier request differs.
    func claim(_ server: ReferenceServer, messageID: String, threadID: String?) throws -> Stored? {
        do {
            try server.db.execute(
                """
                INSERT INTO idempotency (username, client_msg_id, request_hash, message_id, thread_id, created_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(username), .text(clientMsgID), .text(requestHash), .text(messageID),
                    threadID.map { .text($0) } ?? .null, .integer(server.now),
                ])
            return nil
        } catch SQLError.constraint(let kind, _) where kind.isDuplicate {
            if let stored = try existing(server) { return stored }
            throw SQLError.busy(message: "an idempotency record appeared and vanished; retry")
        }
    }
}
