import ShareKitSQLInterface

/// The few fragments of the server's queries that the engines spell
/// differently (docs/adr/0020-one-schema-for-both-engines.md); every other
/// statement is written once.
extension SQLDialect {
    /// A condition that holds when `column` contains the next `?` as a
    /// substring (case-sensitive; the server compares folded text): SQLite's
    /// `instr`, PostgreSQL's `strpos`.
    func containsCondition(_ column: String) -> String {
        switch self {
        case .sqlite: "instr(\(column), ?) > 0"
        case .postgresql: "strpos(\(column), ?) > 0"
        }
    }

    /// `column` for an `ORDER BY` in byte order of its UTF-8 text, the same
    /// on both engines: SQLite's default (`BINARY`); on PostgreSQL the `C`
    /// collation, whatever the database's own collation is (a locale's order
    /// ignores punctuation and case at first, so answers would differ).
    func byteOrder(_ column: String) -> String {
        switch self {
        case .sqlite: column
        case .postgresql: "\(column) COLLATE \"C\""
        }
    }
}
