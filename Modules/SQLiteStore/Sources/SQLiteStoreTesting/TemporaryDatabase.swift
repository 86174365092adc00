public import ShareKitSQLiteStore
public import ShareKitSystemTesting

/// A fresh database file in its own temporary directory, for tests of the
/// SQLite store and of code on top of it; ``remove()`` closes it and deletes
/// the directory.
public struct TemporaryDatabase {
    /// The directory that holds the file (and its `-wal`, `-shm`).
    public let directory: TemporaryDirectory
    /// The database file.
    public let path: String
    /// The open database.
    public let database: SQLiteDatabase

    /// A table of rows written by named writers, each numbering its own rows:
    /// the schema the multi-process and group-commit tests write into (the
    /// test helper's `sql-…` commands migrate to the same one).
    public static let itemsSchema = [
        "CREATE TABLE items (id INTEGER PRIMARY KEY, writer TEXT NOT NULL, n INTEGER NOT NULL, UNIQUE (writer, n))"
    ]

    /// Makes the directory and opens `test.sqlite` in it.
    /// - Parameters:
    ///   - configuration: the database settings.
    ///   - schema: migration steps applied at once.
    /// - Throws: the directory's or the database's error.
    public init(configuration: SQLiteConfiguration = SQLiteConfiguration(), schema: [String] = []) throws {
        directory = try TemporaryDirectory(prefix: "sharekit-sql")
        path = directory.file("test.sqlite")
        database = try SQLiteDatabase(path: path, configuration: configuration)
        try database.migrate(schema)
    }

    /// Closes the database and deletes the directory.
    public func remove() {
        try? database.close()
        directory.remove()
    }
}
