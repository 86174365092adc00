import Foundation
import ShareKitSQLInterface
import ShareKitSQLiteStore

/// What the `sql-…` commands share: their table, their arguments, and lines
/// that a waiting test sees at once.
enum SQLHelperSupport {
    /// The schema of the `sql-…` commands; `SQLiteStoreTests` migrates with
    /// the same steps, so whoever opens the file first creates the table.
    static let migrations = [
        "CREATE TABLE items (id INTEGER PRIMARY KEY, writer TEXT NOT NULL, n INTEGER NOT NULL, UNIQUE (writer, n))"
    ]

    /// Opens the database and brings the schema up to date.
    /// - Parameter path: the file.
    /// - Returns: the database.
    /// - Throws: `SQLError`.
    static func open(_ path: String) throws -> SQLiteDatabase {
        let database = try SQLiteDatabase(path: path)
        try database.migrate(migrations)
        return database
    }

    /// The argument at `index`, or exits 2 with the usage.
    /// - Parameters:
    ///   - arguments: the command's arguments.
    ///   - index: the position.
    ///   - usage: the command's synopsis.
    /// - Returns: the argument.
    static func argument(_ arguments: [String], _ index: Int, usage: String) -> String {
        guard index < arguments.count else {
            FileHandle.standardError.write(Data("usage: \(usage)\n".utf8))
            exit(2)
        }
        return arguments[index]
    }

    /// Prints a line and flushes at once: stdout into a pipe is buffered,
    /// and the test waits for the line while this process keeps running (or
    /// kills it right after, when nothing unflushed would ever arrive).
    /// - Parameter line: the line.
    static func say(_ line: String) {
        print(line)
        fflush(nil)
    }
}
