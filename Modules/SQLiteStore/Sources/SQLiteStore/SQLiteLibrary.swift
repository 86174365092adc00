import CSQLite

/// Facts about the SQLite library this process linked.
public enum SQLiteLibrary {
    /// The version string of the linked libsqlite3, e.g. `3.40.1`, for `--version` and bug reports.
    public static var version: String { String(cString: sqlite3_libversion()) }
}
