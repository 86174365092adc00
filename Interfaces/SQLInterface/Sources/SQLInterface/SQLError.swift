/// Why a database operation failed, in cases a caller can act on.
///
/// Every message is for a person and comes from the database engine or
/// names columns, types and files; it never contains a bound value, which may
/// be a secret (a token, a password hash). Implementations remove bound text
/// that the engine echoes back (a path given to `ATTACH`, say) before
/// building the error.
public enum SQLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A constraint refused the statement; the statement had no effect and an
    /// enclosing transaction stays open. `kind.isDuplicate` is the signal for
    /// an idempotent retry that finds its row already stored.
    case constraint(SQLConstraintKind, message: String)
    /// Another connection (usually another process) held the lock for longer
    /// than the busy timeout. Retrying later may succeed.
    case busy(message: String)
    /// The engine rolled the whole transaction back because it conflicted
    /// with a concurrent one: a serialization failure or a deadlock. Nothing
    /// of the transaction was written; running the whole transaction again
    /// (not just the failing statement) may succeed. Engines that run one
    /// writer at a time (SQLite) never report it.
    case serializationFailure(message: String)
    /// The file is not a database, or its content is damaged. Retrying will
    /// not help; move the file aside.
    case corrupt(message: String)
    /// The disk or the file-size limit is full; nothing of the failed
    /// statement or transaction was written.
    case full(message: String)
    /// The database cannot be written (a read-only file, directory or mount).
    case readOnly(message: String)
    /// The API was used wrongly: a closed database, a wrong number of bound
    /// values, a `BEGIN` outside ``SQLDatabase/transaction(_:)``. A bug in the caller.
    case misuse(message: String)
    /// The engine rejected the statement: a syntax error, an unknown table or
    /// column, a table that already exists. A bug in the caller's SQL.
    case statement(message: String)
    /// Opening, reading or writing the file failed, or another engine error;
    /// `code` is the engine's (extended) result code.
    case io(code: Int32, message: String)
    /// A row has no column with this name or index.
    case noSuchColumn(String)
    /// A column holds another type than the one asked for.
    case typeMismatch(column: String, expected: String, found: String)
    /// The database's schema is newer than the migrations this program knows
    /// (it was written by a newer version); it is left as it is.
    case schemaTooNew(version: Int, known: Int)

    /// A message for a person: what failed and, where it helps, what to do.
    public var description: String {
        switch self {
        case .constraint(_, let message):
            return "constraint violated: \(message)"
        case .busy(let message):
            return "database busy: \(message)"
        case .serializationFailure(let message):
            return "transaction rolled back after a conflict with a concurrent one: \(message); run it again"
        case .corrupt(let message):
            return "database corrupt: \(message)"
        case .full(let message):
            return "database full: \(message)"
        case .readOnly(let message):
            return "database is read-only: \(message)"
        case .misuse(let message):
            return "database misuse: \(message)"
        case .statement(let message):
            return "SQL error: \(message)"
        case .io(let code, let message):
            return "database I/O error \(code): \(message)"
        case .noSuchColumn(let column):
            return "no such column \(column)"
        case .typeMismatch(let column, let expected, let found):
            return "column \(column) holds \(found), expected \(expected)"
        case .schemaTooNew(let version, let known):
            return "database schema version \(version) is newer than this program's \(known); "
                + "use a newer program or move the database aside"
        }
    }
}
