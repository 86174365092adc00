import Foundation
import ShareKitCore
import ShareKitOutboxInterface
import ShareKitSQLInterface

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

    /// A row of ``columns`` as read: the item, and why it cannot be sent
    /// when a value is unreadable or out of its range.
    struct ReadRow {
        /// The row's `client_msg_id` as stored.
        let id: String
        /// The item; when ``problem`` is set, a failed one with safe values
        /// (numbers clamped into their ranges, no attachments) that can be
        /// shown and dropped but never sent. Nil when the id is not a UUIDv7.
        let item: OutboxItem?
        /// The first thing wrong with the row, naming the field.
        let problem: String?
    }

    /// Reads a row of ``columns``, checking every value: each number against
    /// its range (``ShareKitOutboxInterface/OutboxItem/rangeProblem``), each JSON
    /// column by decoding it, and each attachment's stored path against the
    /// item's own folder under `filesRoot` (a record naming another file
    /// would upload it). Never throws: a bad record must not stop the queue.
    /// - Parameters:
    ///   - row: the row.
    ///   - filesRoot: the folder of the items' file folders.
    static func read(_ row: SQLRow, filesRoot: String) -> ReadRow {
        let id = (try? row.get("client_msg_id", as: String.self)) ?? ""
        guard let clientMsgID = try? UUIDv7(string: id) else {
            return ReadRow(id: id, item: nil, problem: "its client_msg_id is not a UUIDv7")
        }
        var problems: [String] = []
        func text(_ column: String) -> String? {
            switch try? row.value(column) {
            case .text(let value)?: return value
            case .null?: return nil
            default:
                problems.append("the field '\(column)' is not text")
                return nil
            }
        }
        func integer(_ column: String) -> Int64 {
            guard case .integer(let value)? = try? row.value(column) else {
                problems.append("the field '\(column)' is not an integer")
                return 0
            }
            return value
        }
        let state = text("state").flatMap(OutboxState.init(rawValue:))
        if state == nil { problems.append("the field 'state' is not a known state") }
        let target = text("target").flatMap { try? decode(ShareTarget.self, $0) }
        if target == nil { problems.append("the field 'target' is not a target") }
        let attachments = text("attachments").flatMap { try? decode([OutboxAttachment].self, $0) }
        if attachments == nil { problems.append("the field 'attachments' is not a list of attachments") }
        let folder = filesRoot + "/" + id + "/"
        for (index, attachment) in (attachments ?? []).enumerated() where !isInside(attachment.storedPath, folder) {
            problems.append("the field 'attachments.\(index).stored_path' is not a file of the item's own folder")
        }
        let rawAttempts = integer("attempts")
        let shownTarget = target ?? ShareTarget(kind: .thread, id: "", displayPath: "?")
        var item = OutboxItem(
            clientMsgID: clientMsgID, serverOrigin: text("server_origin") ?? "", target: shownTarget,
            text: text("text") ?? "", title: text("title"), attachments: attachments ?? [], state: state ?? .failed,
            attempts: Int(clamping: rawAttempts), nextAttemptAt: integer("next_attempt_at"),
            lastError: text("last_error"), failureCode: text("failure_code"), messageID: text("message_id"),
            replayed: integer("replayed") != 0, createdAt: integer("created_at"), updatedAt: integer("updated_at"))
        if let problem = item.rangeProblem { problems.insert(problem, at: 0) }
        guard let problem = problems.first else { return ReadRow(id: id, item: item, problem: nil) }
        // Shown and dropped, never sent: the numbers in range, no files.
        item.attachments = []
        item.attempts = min(
            max(item.attempts, OutboxItem.attemptsRange.lowerBound), OutboxItem.attemptsRange.upperBound)
        let times = OutboxItem.timeRange
        item.nextAttemptAt = min(max(item.nextAttemptAt, times.lowerBound), times.upperBound)
        item.createdAt = min(max(item.createdAt, times.lowerBound), times.upperBound)
        item.updatedAt = min(max(item.updatedAt, times.lowerBound), times.upperBound)
        item.state = .failed
        item.failureCode = OutboxItem.invalidRecordCode
        item.lastError = invalidRecordReason(problem)
        return ReadRow(id: id, item: item, problem: problem)
    }

    /// The reason a refused record shows (`share inbox list`, `share status`).
    static func invalidRecordReason(_ problem: String) -> String {
        "the outbox record is not valid (\(problem)); drop it with `share inbox drop ID`"
    }

    /// Whether a stored path is a plain file name directly inside `folder` (which ends in `/`).
    private static func isInside(_ path: String, _ folder: String) -> Bool {
        guard path.hasPrefix(folder) else { return false }
        let name = path.dropFirst(folder.count)
        return !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0")
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
