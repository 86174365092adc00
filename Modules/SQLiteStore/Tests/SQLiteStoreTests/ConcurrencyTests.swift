import ShareKitSQLInterface
import ShareKitSQLiteStore
import ShareKitSQLiteStoreTesting
import ShareKitSystemTesting
import Testing

@Suite("many tasks on one database")
struct ConcurrencyTests {
    @Test("32 tasks inserting 100 rows each lose no row, and each insert gets its own rowid")
    func concurrentInserts() async throws {
        let temporary = try TemporaryDatabase(
            configuration: SQLiteConfiguration(synchronous: .normal), schema: TemporaryDatabase.itemsSchema)
        defer { temporary.remove() }
        let database: any SQLDatabase = temporary.database
        let rowIDs = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for writer in 0..<32 {
                group.addTask {
                    try (0..<100).map { n in
                        // Every other insert in a transaction of its own, the rest as single statements.
                        let insert = { () throws -> SQLExecution in
                            try database.execute(
                                "INSERT INTO items (writer, n) VALUES (?, ?)",
                                [.text("w\(writer)"), .integer(Int64(n))])
                        }
                        return try (n.isMultiple(of: 2) ? insert() : database.transaction(insert)).lastInsertRowID
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(rowIDs.count == 3200)
        #expect(Set(rowIDs).count == 3200)
        let row = try #require(
            try database.query("SELECT count(*) AS n, count(DISTINCT writer) AS writers FROM items").first)
        #expect(try row.get("n", as: Int64.self) == 3200)
        #expect(try row.get("writers", as: Int64.self) == 32)
    }

    @Test("read-modify-write inside transactions from 16 tasks is exact")
    func readModifyWrite() async throws {
        let temporary = try TemporaryDatabase(
            configuration: SQLiteConfiguration(synchronous: .normal),
            schema: [
                "CREATE TABLE counter (id INTEGER PRIMARY KEY, value INTEGER NOT NULL); INSERT INTO counter VALUES (1, 0)"
            ])
        defer { temporary.remove() }
        let database = temporary.database
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    for _ in 0..<50 {
                        try database.transaction {
                            // Read, compute in Swift, write back: only exclusion makes this exact.
                            let value: Int64 = try #require(try database.query("SELECT value FROM counter").first).get(
                                "value")
                            try database.execute("UPDATE counter SET value = ? WHERE id = 1", [.integer(value + 1)])
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try database.query("SELECT value FROM counter").first?.get("value", as: Int64.self) == 800)
    }

    @Test("readers and writers at once: every read sees a whole transaction")
    func readersSeeWholeTransactions() async throws {
        let temporary = try TemporaryDatabase(
            configuration: SQLiteConfiguration(synchronous: .normal), schema: TemporaryDatabase.itemsSchema)
        defer { temporary.remove() }
        let database = temporary.database
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for batch in 0..<25 {
                        try database.transaction {
                            for n in 0..<10 {
                                try database.execute(
                                    "INSERT INTO items (writer, n) VALUES (?, ?)",
                                    [.text("w\(writer)"), .integer(Int64(batch * 10 + n))])
                            }
                        }
                    }
                }
            }
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<50 {
                        let count: Int64 = try #require(try database.query("SELECT count(*) AS n FROM items").first)
                            .get("n")
                        #expect(count % 10 == 0)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try database.query("SELECT count(*) AS n FROM items").first?.get("n", as: Int64.self) == 1000)
    }
}
