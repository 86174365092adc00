/// The SQL dialect a database speaks, for the few statements that must be
/// written per engine (a schema's column types, identity columns).
///
/// Most statements need no branch: both engines understand `?`
/// placeholders (PostgresStore rewrites them), `INSERT … ON CONFLICT … DO
/// UPDATE`, `INSERT … RETURNING` and `COALESCE`. A caller asks
/// ``SQLDatabase/dialect`` only where the engines differ.
public enum SQLDialect: String, Sendable, Hashable, CaseIterable {
    /// SQLite 3.35 or later: dynamic typing, `INTEGER PRIMARY KEY AUTOINCREMENT`, `BLOB`.
    case sqlite
    /// PostgreSQL 12 or later: static typing, identity columns, `BYTEA`, `BIGINT`.
    case postgresql
}
