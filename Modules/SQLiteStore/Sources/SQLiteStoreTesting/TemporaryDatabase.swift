import SQLInterface
import SQLiteStore
import SystemTesting

/// A fresh database file in its own temporary directory; ``remove()`` closes
/// it and deletes the directory.
struct TemporaryDatabase {
    /// The directory that holds the file (and its `-wal`, `-shm`).
    let directory: TemporaryDirectory
    /// The database file.
    let path: String
    /// The open database.
    let database: SQLiteDatabase

    /// The schema that the `sql-…` helper commands migrate to (ShareTestHelper's
    /// `SQLHelperSupport.migrations`, repeated here because tests cannot import an executable).
    static let itemsSchema = [
        "CREATE TABLE items (id INTEGER PRIMARY KEY, writer TEXT NOT NULL, n INTEGER NOT NULL, UNIQUE (writer, n))"
    ]

    /// Makes the directory and opens `test.sqlite` in it.
    /// - Parameters:
    ///   - configuration: the database settings.
    ///   - schema: migration steps applied at once.
    init(configuration: SQLiteConfiguration = SQLiteConfiguration(), schema: [String] = []) throws {
        directory = try TemporaryDirectory(prefix: "sharekit-sql")
        path = directory.file("test.sqlite")
        database = try SQLiteDatabase(path: path, configuration: configuration)
        try database.migrate(schema)
    }

    /// Closes the database and deletes the directory.
    func remove() {
        try? database.close()
        directory.remove()
    }
}
