import Foundation
import OutboxInterface
import SQLInterface
import ShareCore

/// The outbox table and the mapping between its rows and ``OutboxItem``.
/// The target and the attachments are JSON columns: they are read and
/// written whole, never queried.
enum OutboxSchema {
    /// The migration steps; only ever append.
    static let migrations = [
        """
        CREATE TABLE outbox (
            client_msg_id TEXT PRIMARY KEY NOT NULL,
            server_origin TEXT NOT NULL,
            target TEXT NOT NULL,
            text TEXT NOT NULL,
            title TEXT,
            attachments TEXT NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('pending', 'sending', 'sent', 'failed')),
            attempts INTEGER NOT NULL,
            next_attempt_at INTEGER NOT NULL,
            claimed_at INTEGER,
            last_error TEXT,
            failure_code TEXT,
            message_id TEXT,
            replayed INTEGER NOT NULL DEFAULT 0,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX outbox_due ON outbox (state, next_attempt_at);
        """
    ]

    /// The columns every query reads, in the order ``item(from:)`` expects.
    static let columns = """
        client_msg_id, server_origin, target, text, title, attachments, state, attempts, next_attempt_at, \
        last_error, failure_code, message_id, replayed, created_at, updated_at
        """

    /// The values of an `INSERT` of all ``columns``.
    /// - Parameter encoder: the encoder of the JSON columns (one serves a whole batch).
    static func bindings(of item: OutboxItem, encoder: JSONEncoder = makeEncoder()) throws(OutboxError)
        -> [SQLValue]
    {
        [
            .text(item.clientMsgID.description), .text(item.serverOrigin),
            .text(try json(item.target, encoder: encoder)), .text(item.text), item.title.map(SQLValue.text) ?? .null,
            // Most shares are text only: their empty list needs no encoder.
            .text(item.attachments.isEmpty ? "[]" : try json(item.attachments, encoder: encoder)),
            .text(item.state.rawValue), .integer(Int64(item.attempts)), .integer(item.nextAttemptAt),
            item.lastError.map(SQLValue.text) ?? .null, item.failureCode.map(SQLValue.text) ?? .null,
            item.messageID.map(SQLValue.text) ?? .null, .integer(item.replayed ? 1 : 0), .integer(item.createdAt),
            .integer(item.updatedAt),
        ]
    }

    /// Reads a row of ``columns``.
    static func item(from row: SQLRow) throws -> OutboxItem {
        let stateText: String = try row.get("state")
        guard let state = OutboxState(rawValue: stateText) else {
            throw OutboxError.storage("unknown state '\(stateText)' in the outbox table")
        }
        return OutboxItem(
            clientMsgID: try UUIDv7(string: try row.get("client_msg_id")), serverOrigin: try row.get("server_origin"),
            target: try decode(ShareTarget.self, try row.get("target")), text: try row.get("text"),
            title: try row.get("title"), attachments: try decode([OutboxAttachment].self, try row.get("attachments")),
            state: state, attempts: try row.get("attempts"), nextAttemptAt: try row.get("next_attempt_at"),
            lastError: try row.get("last_error"), failureCode: try row.get("failure_code"),
            messageID: try row.get("message_id"), replayed: try row.get("replayed", as: Int64.self) != 0,
            createdAt: try row.get("created_at"), updatedAt: try row.get("updated_at"))
    }

    /// The encoder of the JSON columns: compact, sorted keys, slashes as they are.
    static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// A value as compact JSON text.
    static func json(_ value: some Encodable, encoder: JSONEncoder = makeEncoder()) throws(OutboxError) -> String {
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            throw .invalidItem("it cannot be encoded as JSON (\(error))")
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }
}
