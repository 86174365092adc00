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

    @Test(
        "writes, a failing write and a read in one transaction: one message each, savepoints and BEGIN ride along",
        arguments: [PostgresIsolation.exclusive, .rowLocks])
    func writesShareSavepointMessages(isolation: PostgresIsolation) throws {
        let fixture = try PostgresFixture(
            configuration: PostgresConfiguration(isolation: isolation), schema: PostgresFixture.itemsSchema)
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
        // The insert, with BEGIN and the first savepoint in its pipeline
        // (exclusive: BEGIN and its lock in a message of their own first,
        // since waiting for the lock may time out); the duplicate (the
        // previous savepoint's release and its own savepoint in the same
        // pipeline) and its ROLLBACK TO, which leaves the savepoint ready
        // for the third insert; the read; COMMIT. With BEGIN and each
        // savepoint in a message of its own it took 8; with SAVEPOINT and
        // RELEASE around each write, 13.
        #expect(cost == (isolation == .exclusive ? 7 : 6))
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

    @Test("a write that cannot be prepared, sent in one pipeline with its savepoint, undoes only itself")
    func unpreparableWriteInAPipeline() throws {
        let fixture = try PostgresFixture(schema: PostgresFixture.itemsSchema)
        defer { fixture.remove() }
        let database = fixture.database
        try database.transaction {
            try database.execute("INSERT INTO items (writer, n) VALUES ('a', 1)")
            // The previous write used the savepoint: RELEASE, SAVEPOINT, the
            // prepare and the statement go in one pipeline, and the prepare fails.
            #expect(throws: SQLError.self) {
                try database.execute("INSERT INTO no_such_table (writer) VALUES (?)", [.text("a")])
            }
            #expect(throws: SQLError.self) {
                try database.execute("INSERT INTO items (writer, no_such_column) VALUES (?, 2)", [.text("a")])
            }
            try database.execute("INSERT INTO items (writer, n) VALUES ('a', ?)", [.integer(2)])
            try database.execute("INSERT INTO items (writer, n) VALUES ('a', ?)", [.integer(3)])
        }
        #expect(try fixture.psql("SELECT string_agg(n::text, ',' ORDER BY n) FROM items") == "1,2,3")
        // The failed names were forgotten: the same text fails again the same way, and the connection is fine.
        #expect(throws: SQLError.self) {
            try database.transaction {
                try database.execute("INSERT INTO items (writer, n) VALUES ('b', 1)")
                try database.execute("INSERT INTO no_such_table (writer) VALUES (?)", [.text("b")])
            }
        }
        #expect(try fixture.psql("SELECT count(*) FROM items WHERE writer = 'b'") == "0")
    }

    @Test(
        "nested levels one after another with writes between them: deferred releases reach PostgreSQL in order",
        arguments: [PostgresIsolation.exclusive, .rowLocks])
    func nestedLevelsInARow(isolation: PostgresIsolation) throws {
        let fixture = try PostgresFixture(
            configuration: PostgresConfiguration(isolation: isolation), schema: PostgresFixture.itemsSchema)
        defer { fixture.remove() }
        let database = fixture.database
        try database.transaction {
            try database.execute("INSERT INTO items (writer, n) VALUES ('outer', 1)")
            for n in 1...3 {
                // A level that runs nothing sends nothing; one that writes
                // is released ahead of the next statement.
                try database.transaction {}
                try database.transaction {
                    try database.execute("INSERT INTO items (writer, n) VALUES ('inner', ?)", [.integer(Int64(n))])
                }
                try database.execute("INSERT INTO items (writer, n) VALUES ('outer', ?)", [.integer(Int64(n + 1))])
            }
            #expect(throws: Failure.self) {
                try database.transaction {
                    try database.execute("INSERT INTO items (writer, n) VALUES ('inner', 9)")
                    throw Failure()
                }
            }
            #expect(throws: SQLError.self) {
                try database.execute("INSERT INTO items (writer, n) VALUES ('outer', 1)")
            }
        }
        #expect(
            try fixture.psql("SELECT string_agg(writer || n, ',' ORDER BY id) FROM items")
                == "outer1,inner1,outer2,inner2,outer3,inner3,outer4")
        // A transaction that runs nothing commits nothing.
        let commits = database.commits
        try database.transaction {}
        #expect(database.commits == commits || isolation == .exclusive)
    }
}
