import ShareKitPostgresStore
import ShareKitSQLInterface
import Testing

@Suite("schema migrations")
struct MigrationTests {
    static let steps = [
        "CREATE TABLE notes (id BIGINT PRIMARY KEY, body TEXT NOT NULL); CREATE TABLE log (step INTEGER NOT NULL)",
        "ALTER TABLE notes ADD COLUMN title TEXT; INSERT INTO log VALUES (2)",
    ]

    @Test("steps apply once, in order; the version is kept; a newer database is left alone")
    func appliesOnce() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        let database = fixture.database
        #expect(try database.schemaVersion() == 0)
        #expect(try database.migrate(Array(Self.steps.prefix(1))) == 1)
        #expect(try database.migrate(Self.steps) == 1)
        #expect(try database.migrate(Self.steps) == 0)
        #expect(try database.schemaVersion() == 2)
        #expect(try fixture.psql("SELECT count(*) FROM log") == "1")
        try database.execute("INSERT INTO notes (id, body, title) VALUES (1, 'b', 't')")
        let error = #expect(throws: SQLError.self) { try database.migrate(Array(Self.steps.prefix(1))) }
        #expect(error == .schemaTooNew(version: 2, known: 1))
        #expect(try database.schemaVersion() == 2)
    }

    @Test("a failing step leaves the previous version whole: its earlier statements are undone too")
    func failingStep() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        let database = fixture.database
        try database.migrate(Array(Self.steps.prefix(1)))
        let broken = Array(Self.steps.prefix(1)) + ["CREATE TABLE extra (x INTEGER); CREATE TABLE notes (x INTEGER)"]
        #expect(throws: SQLError.self) { try database.migrate(broken) }
        #expect(try database.schemaVersion() == 1)
        #expect(try fixture.psql("SELECT to_regclass('extra') IS NULL") == "t")
        #expect(try database.migrate(Self.steps) == 1)
    }

    @Test("four connections migrating at once apply each step exactly once")
    func concurrentMigrations() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        let steps = Self.steps + (3...6).map { "INSERT INTO log VALUES (\($0))" }
        let connections = try (0..<4).map { _ in try fixture.connect() }
        defer { for connection in connections { try? connection.close() } }
        let waits = connections.map { database in onThread { try database.migrate(steps) } }
        let applied = try waits.map { try $0().get() }
        #expect(applied.reduce(0, +) == steps.count)
        #expect(try fixture.psql("SELECT string_agg(step::text, ',' ORDER BY step) FROM log") == "2,3,4,5,6")
    }
}
