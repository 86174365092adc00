import ShareKitSQLInterface
import Testing

@testable import ShareKitPostgresStore

/// The exclusive lock is held from `BEGIN` to `COMMIT`, so every round trip
/// inside a transaction is time no other writer of the deployment gets:
/// these tests hold the count of a transaction's messages down, and check
/// that the savepoints it saves still undo exactly the failing statement.
@Suite("round trips")
struct RoundTripTests {
    private struct Failure: Error {}

    /// Runs `body` in a transaction and returns what it cost in round trips.
    private func roundTrips(_ database: PostgresDatabase, _ body: () throws -> Void) throws -> Int {
        let before = database.roundTrips
        try database.transaction { try body() }
        return database.roundTrips - before
    }

    @Test("writes, a failing write and a read in one transaction: one message each, a savepoint between writes")
    func writesShareSavepointMessages() throws {
        let fixture = try PostgresFixture(schema: PostgresFixture.itemsSchema)
        defer { fixture.remove() }
        let database = fixture.database
        func work(_ first: Int64) throws {
            try database.execute("INSERT INTO items (writer, n) VALUES ('a', ?)", [.integer(first)])
            // A duplicate: undoes only itself.
            #expect(throws: SQLError.self) {
                try database.execute("INSERT INTO items (writer, n) VALUES ('a', ?)", [.integer(first)])
            }
            try database.execute("INSERT INTO items (writer, n) VALUES ('a', ?)", [.integer(first + 1)])
            _ = try database.query("SELECT count(*) AS n FROM items WHERE writer = ?", [.text("a")])
        }
        // The first run prepares the statements and learns the constraint's kind.
        _ = try roundTrips(database) { try work(1) }
        let cost = try roundTrips(database) { try work(10) }
        // BEGIN with the first savepoint; the insert; the duplicate (its
        // savepoint opened with the previous one's release) and its ROLLBACK
        // TO, which leaves the savepoint ready for the third insert; the
        // read; COMMIT. With SAVEPOINT and RELEASE around each write it took 13.
        #expect(cost == 8)
        #expect(try fixture.psql("SELECT string_agg(n::text, ',' ORDER BY n) FROM items") == "1,2,10,11")
    }

    @Test("a nested transaction between writes: its throw undoes only its own writes, the outer ones stay")
    func nestedLevelsKeepTheirWrites() throws {
        let fixture = try PostgresFixture(schema: PostgresFixture.itemsSchema)
        defer { fixture.remove() }
        let database = fixture.database
        try database.transaction {
            try database.execute("INSERT INTO items (writer, n) VALUES ('outer', 1)")
            #expect(throws: Failure.self) {
                try database.transaction {
                    try database.execute("INSERT INTO items (writer, n) VALUES ('inner', 1)")
                    try database.execute("INSERT INTO items (writer, n) VALUES ('inner', 2)")
                    throw Failure()
                }
            }
            // A failing write right after the nested level rolls back only itself.
            #expect(throws: SQLError.self) {
                try database.execute("INSERT INTO items (writer, n) VALUES ('outer', 1)")
            }
            try database.transaction {
                try database.execute("INSERT INTO items (writer, n) VALUES ('inner', 3)")
                #expect(throws: SQLError.self) {
                    try database.execute("INSERT INTO items (writer, n) VALUES ('inner', 3)")
                }
            }
            try database.execute("INSERT INTO items (writer, n) VALUES ('outer', 2)")
        }
        #expect(
            try fixture.psql("SELECT string_agg(writer || n, ',' ORDER BY id) FROM items") == "outer1,inner3,outer2")
    }
}
