import ShareKitSQLInterface
import ShareKitSQLiteStore
import ShareKitSQLiteStoreTesting
import ShareKitSystemTesting
import Testing

@Suite("schema migrations")
struct MigrationTests {
    private static let steps = [
        "CREATE TABLE outbox (id INTEGER PRIMARY KEY, client_msg_id TEXT NOT NULL UNIQUE)",
        """
        ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX outbox_attempts ON outbox (attempts);
        """,
    ]

    private func tables(_ database: SQLiteDatabase) throws -> [String] {
        try database.query("SELECT name FROM sqlite_schema WHERE type IN ('table', 'index') ORDER BY name")
            .map { try $0.get("name") }
    }

    @Test("steps apply once; running them again applies nothing")
    func appliesOnce() throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        let database = temporary.database
        #expect(try database.schemaVersion() == 0)
        #expect(try database.migrate(Self.steps) == 2)
        #expect(try database.schemaVersion() == 2)
        #expect(try tables(database).contains("outbox_attempts"))
        #expect(try database.migrate(Self.steps) == 0)
        #expect(try database.migrate(Self.steps) == 0)

        // Reopened, the version is kept in the file.
        try database.close()
        let reopened = try SQLiteDatabase(path: temporary.path)
        defer { try? reopened.close() }
        #expect(try reopened.migrate(Self.steps) == 0)
        #expect(try reopened.schemaVersion() == 2)
    }

    @Test("a later release appends a step; only that one runs")
    func appendedStep() throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        let database = temporary.database
        try database.migrate([Self.steps[0]])
        try database.execute("INSERT INTO outbox (client_msg_id) VALUES ('m-1')")
        #expect(try database.migrate(Self.steps) == 1)
        #expect(try database.query("SELECT attempts FROM outbox").first?.get("attempts", as: Int64.self) == 0)
    }

    @Test("a failing step leaves the previous version complete, earlier new steps included")
    func failingStepRollsBack() throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        let database = temporary.database
        try database.migrate([Self.steps[0]])
        let broken = Self.steps + ["CREATE TABLE extra (x); INSERT INTO no_such_table VALUES (1)"]
        #expect(throws: SQLError.self) { try database.migrate(broken) }
        #expect(try database.schemaVersion() == 1)
        #expect(try !tables(database).contains("extra"))
        #expect(try !tables(database).contains("outbox_attempts"))
        #expect(try database.migrate(Self.steps) == 1)
    }

    @Test("a schema newer than the program's steps is refused and left alone")
    func tooNew() throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        let database = temporary.database
        try database.migrate(Self.steps)
        #expect(throws: SQLError.schemaTooNew(version: 2, known: 1)) { try database.migrate([Self.steps[0]]) }
        #expect(try database.schemaVersion() == 2)
    }
}
