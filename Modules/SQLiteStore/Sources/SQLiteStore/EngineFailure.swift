import CShareKitSQLite
import ShareKitSQLInterface

/// Turns SQLite result codes into ``SQLError`` cases, and keeps bound values
/// out of the messages.
enum EngineFailure {
    /// Bound text shorter than this is not searched for in messages: short
    /// strings ("id", "on") match ordinary words of a message, while secrets
    /// (tokens, paths, hashes) are long.
    static let shortestRedactedText = 4

    /// The error for a failed SQLite call.
    /// - Parameters:
    ///   - code: the (extended) result code.
    ///   - message: SQLite's message (`sqlite3_errmsg`).
    ///   - bindings: the values bound to the failing statement, removed from the message.
    ///   - path: the database file, named in messages about the file.
    /// - Returns: the error.
    static func error(code: Int32, message: String, bindings: [SQLValue], path: String) -> SQLError {
        let message = redact(message, bindings)
        switch code & 0xFF {
        case SQLITE_CONSTRAINT:
            return .constraint(constraintKind(code), message: message)
        case SQLITE_BUSY, SQLITE_LOCKED:
            return .busy(message: "\(message) (\(path): another connection held the lock past the busy timeout)")
        case SQLITE_CORRUPT, SQLITE_NOTADB:
            return .corrupt(message: "\(message) (\(path): not a database, or damaged; move it aside)")
        case SQLITE_FULL:
            return .full(message: "\(message) (\(path))")
        case SQLITE_READONLY:
            return .readOnly(message: "\(message) (\(path))")
        case SQLITE_MISUSE, SQLITE_RANGE:
            return .misuse(message: message)
        case SQLITE_ERROR, SQLITE_MISMATCH, SQLITE_TOOBIG:
            return .statement(message: message)
        default:
            return .io(code: code, message: "\(message) (\(path))")
        }
    }

    /// The kind of a constraint violation from its extended result code.
    /// (The `SQLITE_CONSTRAINT_*` macros are shifts that Swift does not import.)
    /// - Parameter code: the extended result code.
    /// - Returns: the kind.
    static func constraintKind(_ code: Int32) -> SQLConstraintKind {
        switch code >> 8 {
        case 1: .check
        case 3: .foreignKey
        case 5: .notNull
        case 6, 10: .primaryKey  // PRIMARYKEY, ROWID
        case 8: .unique
        default: .other
        }
    }

    /// Replaces every bound text (and UTF-8 blob) that appears in a message.
    /// SQLite rarely echoes values, but it does for some (`ATTACH ?` names the
    /// file it could not open), and bound values may be secrets.
    /// - Parameters:
    ///   - message: the engine's message.
    ///   - bindings: the bound values.
    /// - Returns: the message without them.
    static func redact(_ message: String, _ bindings: [SQLValue]) -> String {
        var message = message
        let texts = bindings.compactMap { value -> String? in
            switch value {
            case .text(let text): text
            case .blob(let bytes): String(validating: bytes, as: UTF8.self)
            default: nil
            }
        }
        // Longest first, so a value that contains another is removed whole.
        for text in texts.sorted(by: { $0.count > $1.count }) where text.count >= shortestRedactedText {
            message = message.replacing(text, with: "<bound value>")
        }
        return message
    }
}
