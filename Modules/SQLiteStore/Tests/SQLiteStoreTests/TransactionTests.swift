import ShareKitSQLInterface
import ShareKitSQLiteStore
import ShareKitSQLiteStoreTesting
import ShareKitSystemTesting
import Testing

@Suite("transactions")
struct TransactionTests {
    private struct Failure: Error, Equatable {}

    private func count(_ database: SQLiteDatabase) throws -> Int64 {
        try #require(try database.query("SELECT count(*) AS n FROM items").first).get("n")
    }

    @Test("a body that returns commits, durably: another connection sees the rows")
    func commits() throws {
        let temporary = try TemporaryDatabase(schema: TemporaryDatabase.itemsSchema)
        defer { temporary.remove() }
        let database = temporary.database
        let ids = try database.transaction {
            try (0..<3).map { n in
                try database.execute("INSERT INTO items (writer, n) VALUES ('t', ?)", [.integer(Int64(n))])
                    .lastInsertRowID
            }
        }
        #expect(ids == [1, 2, 3])
        let other = try SQLiteDatabase(path: temporary.path)
        defer { try? other.close() }
        #expect(try count(other) == 3)
    }

    @Test("a body that throws rolls back, and its own error comes out unchanged")
    func rollsBack() throws {
        let temporary = try TemporaryDatabase(schema: TemporaryDatabase.itemsSchema)
        defer { temporary.remove() }
        let database = temporary.database
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
    }

    @Test("a nested transaction is a savepoint: its throw undoes only its own work")
    func nestedSavepoint() throws {
        let temporary = try TemporaryDatabase(schema: TemporaryDatabase.itemsSchema)
        defer { temporary.remove() }
        let database = temporary.database
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
                try database.transaction { try database.execute("INSERT INTO items (writer, n) VALUES ('deep', 1)") }
            }
        }
        let writers = try database.query("SELECT writer FROM items ORDER BY id").map {
            try $0.get("writer", as: String.self)
        }
        #expect(writers == ["outer", "inner", "deep"])

        // The outer rollback takes the committed savepoints with it.
        #expect(throws: Failure()) {
            try database.transaction {
                try database.transaction { try database.execute("INSERT INTO items (writer, n) VALUES ('gone', 1)") }
                throw Failure()
            }
        }
        #expect(try count(database) == 3)
    }

    @Test("inside a transaction lastInsertRowID and changes are exact")
    func rowIDAndChanges() throws {
        let temporary = try TemporaryDatabase(schema: TemporaryDatabase.itemsSchema)
        defer { temporary.remove() }
        let database = temporary.database
        try database.transaction {
            try database.execute("INSERT INTO items (id, writer, n) VALUES (41, 'a', 1)")
            #expect(database.lastInsertRowID == 41)
            #expect(database.changes == 1)
            try database.execute("INSERT INTO items (writer, n) VALUES ('a', 2), ('a', 3)")
            #expect(database.lastInsertRowID == 43)
            #expect(database.changes == 2)
        }
        let result = try database.execute("UPDATE items SET n = n + 10 WHERE writer = 'a'")
        #expect(result.changes == 3)
        #expect(result.lastInsertRowID == 43)
    }

    @Test(
        "statements that control transactions by hand are refused",
        arguments: [
            "BEGIN", "BEGIN IMMEDIATE", "  -- note\n commit", "/* c */ ROLLBACK", "SAVEPOINT s", "RELEASE s", "END",
        ])
    func handWrittenControlRefused(sql: String) throws {
        let temporary = try TemporaryDatabase(schema: TemporaryDatabase.itemsSchema)
        defer { temporary.remove() }
        let database = temporary.database
        #expect {
            try database.execute(sql)
        } throws: { error in
            guard case SQLError.misuse(let message) = error else { return false }
            return message.contains("transaction { }")
        }
        try database.transaction {
            try database.execute("INSERT INTO items (writer, n) VALUES ('t', 1)")
            #expect(throws: SQLError.self) { try database.execute(sql) }
        }
        // The connection is in autocommit mode again: another connection sees the row.
        let other = try SQLiteDatabase(path: temporary.path)
        defer { try? other.close() }
        #expect(try count(other) == 1)
    }

    @Test("a transaction on a closed database, and close inside a transaction, are misuse")
    func closedAndClosing() throws {
        let temporary = try TemporaryDatabase(schema: TemporaryDatabase.itemsSchema)
        defer { temporary.remove() }
        let database = temporary.database
        try database.transaction {
            #expect(throws: SQLError.self) { try database.close() }
        }
        try database.close()
        try database.close()  // again: nothing happens
        #expect {
            try database.transaction {}
        } throws: { error in
            guard case SQLError.misuse(let message) = error else { return false }
            return message.contains("closed")
        }
        #expect(throws: SQLError.self) { try database.query("SELECT 1") }
        #expect(database.lastInsertRowID == 0)
    }
}
