import CShareKitPostgres
import ShareKitSQLInterface

/// Turns PostgreSQL's errors into ``ShareKitSQLInterface/SQLError`` cases by their
/// SQLSTATE, and keeps bound values out of the messages.
///
/// Only the primary message is used: PostgreSQL's `DETAIL` lines quote row
/// values (`Key (username)=(alice) already exists`, `Failing row contains
/// …`), which may be secrets. Bound text that the primary message echoes
/// (`invalid input syntax for type integer: "…"`) is replaced too.
enum ServerFailure {
    /// SQLSTATE of a connection that failed or was lost (`connection_failure`).
    static let connectionFailure = "08006"
    /// SQLSTATE of a connection that could not be made (`sqlclient_unable_to_establish_sqlconnection`).
    static let cannotConnect = "08001"

    /// Bound text shorter than this is not searched for in messages: short
    /// strings match ordinary words, while secrets (tokens, hashes) are long.
    static let shortestRedactedText = 4

    /// What a failed result says.
    struct Report {
        /// The five-character SQLSTATE, empty when libpq gave none.
        let state: String
        /// The primary message, without bound values.
        let message: String
        /// The violated constraint's schema, table and name (for a constraint violation).
        let constraint: (schema: String, table: String, name: String)?
    }

    /// Reads a failed result.
    /// - Parameters:
    ///   - result: the `PGresult`, or nil when libpq had none to give.
    ///   - connection: the connection, for its error message when there is no result.
    ///   - bindings: the statement's values, removed from the message.
    /// - Returns: the report.
    static func report(_ result: OpaquePointer?, connection: OpaquePointer?, bindings: [SQLValue]) -> Report {
        func field(_ code: Character) -> String? {
            guard let result, let value = PQresultErrorField(result, Int32(code.asciiValue!)) else { return nil }
            return String(cString: value)
        }
        let primary =
            field("M")
            ?? result.flatMap { PQresultErrorMessage($0).map { String(cString: $0) } }.flatMap { $0.isEmpty ? nil : $0 }
            ?? connection.flatMap { PQerrorMessage($0).map { String(cString: $0) } }
            ?? "unknown error"
        var constraint: (String, String, String)?
        if let name = field("n"), let table = field("t") {
            constraint = (field("s") ?? "", table, name)
        }
        return Report(
            state: field("C") ?? "", message: redact(oneLine(primary), bindings), constraint: constraint)
    }

    /// The error for a report.
    /// - Parameters:
    ///   - report: what the server said.
    ///   - constraintKind: the kind of the violated constraint, when known
    ///     (PostgreSQL reports unique and primary-key violations alike).
    /// - Returns: the error.
    static func error(_ report: Report, constraintKind: SQLConstraintKind? = nil) -> SQLError {
        let message = report.message
        let state = report.state
        switch state {
        case "23505":
            return .constraint(constraintKind ?? .unique, message: message)
        case "23503", "23001":
            return .constraint(.foreignKey, message: message)
        case "23502":
            return .constraint(.notNull, message: message)
        case "23514":
            return .constraint(.check, message: message)
        case "40001", "40P01":
            return .serializationFailure(message: "\(message) (SQLSTATE \(state))")
        case "55P03":
            return .busy(message: "\(message) (another connection held the lock past the lock timeout)")
        case "53100":
            return .full(message: message)
        case "25006":
            return .readOnly(message: message)
        case "25P02", "2D000", "3B001":
            return .misuse(message: message)
        case "XX001", "XX002":
            return .corrupt(message: "\(message) (SQLSTATE \(state))")
        default:
            break
        }
        if state.hasPrefix("23") { return .constraint(.other, message: message) }
        // Syntax errors and rule violations (42), data exceptions (22),
        // unsupported features (0A), dependent objects (2B).
        if ["42", "22", "0A", "2B", "44"].contains(where: state.hasPrefix) { return .statement(message: message) }
        return .io(code: packed(state), message: state.isEmpty ? message : "\(message) (SQLSTATE \(state))")
    }

    /// Whether a SQLSTATE ends the whole transaction whatever the caller does
    /// (a serialization failure or deadlock: retry all of it).
    static func endsTransaction(_ state: String) -> Bool { state == "40001" || state == "40P01" }

    /// A SQLSTATE as one number, packed six bits a character the way
    /// PostgreSQL's own `MAKE_SQLSTATE` does, for ``ShareKitSQLInterface/SQLError/io(code:message:)``.
    static func packed(_ state: String) -> Int32 {
        var code: Int32 = 0
        for (position, byte) in state.utf8.prefix(5).enumerated() {
            code |= ((Int32(byte) - Int32(UInt8(ascii: "0"))) & 0x3F) << (6 * position)
        }
        return code
    }

    /// A multi-line libpq message on one line.
    static func oneLine(_ message: String) -> String {
        message.split(whereSeparator: \.isNewline).map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
            .joined(separator: "; ")
    }

    /// Replaces every bound text (and UTF-8 blob) found in a message.
    /// - Parameters:
    ///   - message: the server's message.
    ///   - bindings: the bound values.
    /// - Returns: the message without them.
    static func redact(_ message: String, _ bindings: [SQLValue]) -> String {
        let secrets: [String] = bindings.compactMap {
            switch $0 {
            case .text(let text) where text.count >= shortestRedactedText: text
            case .blob(let bytes) where bytes.count >= shortestRedactedText: String(validating: bytes, as: UTF8.self)
            default: nil
            }
        }
        // Longest first, so a value that holds a shorter one goes whole.
        return secrets.sorted { $0.count > $1.count }.reduce(message) { $0.replacing($1, with: "<bound value>") }
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
