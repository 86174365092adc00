import ShareKitPostgresStore
import ShareKitSQLInterface
import Testing

@Suite("transactions")
struct TransactionTests {
    private struct Failure: Error, Equatable {}

    private func count(_ database: PostgresDatabase) throws -> Int64 {
        try #require(try database.query("SELECT count(*) AS n FROM items").first).get("n")
    }

    @Test("a body that returns commits: another connection sees the rows, generated keys come from RETURNING")
    func commits() throws {
        let fixture = try PostgresFixture(schema: PostgresFixture.itemsSchema)
        defer { fixture.remove() }
        let database = fixture.database
        let ids = try database.transaction {
            try (0..<3).map { n in
                try #require(
                    try database.query(
                        "INSERT INTO items (writer, n) VALUES ('t', ?) RETURNING id", [.integer(Int64(n))]
                    ).first
                ).get("id", as: Int64.self)
            }
        }
        #expect(ids == [1, 2, 3])
        #expect(database.changes == 1)
        #expect(database.lastInsertRowID == 0)
        #expect(try fixture.psql("SELECT count(*) FROM items") == "3")
    }

    @Test("a body that throws rolls back, and its own error comes out unchanged")
    func rollsBack() throws {
        let fixture = try PostgresFixture(schema: PostgresFixture.itemsSchema)
        defer { fixture.remove() }
        let database = fixture.database
        #expect(throws: Failure()) {
            try database.transaction {
                try database.execute("INSERT INTO items (writer, n) VALUES ('t', 1)")
                throw Failure()
            }
        }
        #expect(try count(database) == 0)
        // An SQL error inside the body rolls back the earlier statements too.
        #expect(throws: SQLError.self) {
            try database.transaction {
                try database.execute("INSERT INTO items (writer, n) VALUES ('t', 1)")
                try database.execute("INSERT INTO no_such_table VALUES (1)")
            }
        }
        #expect(try count(database) == 0)
        // And the connection is usable afterwards.
        try database.transaction { try database.execute("INSERT INTO items (writer, n) VALUES ('t', 2)") }
        #expect(try count(database) == 1)
        #expect(try fixture.psql("SELECT n FROM items") == "2")
    }

    @Test("a nested transaction is a savepoint: its throw undoes only its own work")
    func nestedSavepoint() throws {
        let fixture = try PostgresFixture(schema: PostgresFixture.itemsSchema)
        defer { fixture.remove() }
        let database = fixture.database
        try database.transaction {
            try database.execute("INSERT INTO items (writer, n) VALUES ('outer', 1)")
            #expect(throws: Failure()) {
                try database.transaction {
                    try database.execute("INSERT INTO items (writer, n) VALUES ('inner', 1)")
                    throw Failure()
                }
            }
            try database.transaction {
                try database.execute("INSERT INTO items (writer, n) VALUES ('inner', 2)")
            }
        }
        #expect(try fixture.psql("SELECT writer || n FROM items ORDER BY id") == "outer1\ninner2")
    }

    @Test("BEGIN, COMMIT, SAVEPOINT and friends by hand are refused, and the connection stays usable")
    func handWrittenControlRefused() throws {
        let fixture = try PostgresFixture(schema: PostgresFixture.itemsSchema)
        defer { fixture.remove() }
        let database = fixture.database
        for sql in [
            "BEGIN", "begin isolation level serializable", "START TRANSACTION", "COMMIT", "END", "ROLLBACK", "ABORT",
            "SAVEPOINT s", "RELEASE s", "PREPARE TRANSACTION 'x'", "DISCARD ALL", "DEALLOCATE ALL",
            "COPY items TO STDOUT", "SELECT 1; COMMIT", "/* c */ BEGIN",
        ] {
            let error = #expect(throws: SQLError.self, "\(sql)") { try database.execute(sql) }
            guard case .misuse = try #require(error) else {
                Issue.record("\(sql): \(String(describing: error))")
                continue
            }
        }
        // The statement before a refused one in a script did not run either.
        #expect(throws: SQLError.self) { try database.execute("INSERT INTO items (writer, n) VALUES ('x', 1); COMMIT") }
        try database.transaction { try database.execute("INSERT INTO items (writer, n) VALUES ('t', 1)") }
        #expect(try count(database) == 1)
    }

    @Test("a failed read ends the transaction: later statements and the commit throw, nothing is kept")
    func failedReadEndsTransaction() throws {
        let fixture = try PostgresFixture(schema: PostgresFixture.itemsSchema)
        defer { fixture.remove() }
        let database = fixture.database
        var laterError: SQLError?
        let error = #expect(throws: SQLError.self) {
            try database.transaction {
                try database.execute("INSERT INTO items (writer, n) VALUES ('t', 1)")
                // A read runs without a savepoint; its failure ends the transaction.
                _ = try? database.query("SELECT 1 / 0 AS boom")
                do {
                    try database.execute("INSERT INTO items (writer, n) VALUES ('t', 2)")
                } catch let error as SQLError {
                    laterError = error
                }
            }
        }
        guard case .misuse(let message) = try #require(error) else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(message.contains("division by zero"))
        #expect(laterError == error)
        #expect(try count(database) == 0)
    }

    @Test("closing inside a transaction is refused; closing twice is fine; a closed database refuses calls")
    func closing() throws {
        let fixture = try PostgresFixture(schema: PostgresFixture.itemsSchema)
        defer { fixture.remove() }
        let database = fixture.database
        try database.transaction {
            #expect(throws: SQLError.self) { try database.close() }
        }
        try database.close()
        try database.close()
        let error = #expect(throws: SQLError.self) { try database.query("SELECT 1") }
        guard case .misuse = try #require(error) else {
            Issue.record("\(String(describing: error))")
            return
        }
    }
}
