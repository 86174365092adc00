import ShareKitSQLInterface
import ShareKitSQLiteStore
import ShareKitSystemTesting
import Testing

@Suite("statements: scripts, parameters, streaming, the statement cache")
struct StatementTests {
    @Test("a script without parameters runs every statement; with parameters only one is allowed")
    func scripts() throws {
        let database = try SQLiteDatabase.inMemory()
        try database.execute(
            """
            -- a migration-style script
            CREATE TABLE a (x);
            CREATE TABLE b (y);  /* a comment */
            INSERT INTO a VALUES (1); INSERT INTO b VALUES (2);
            """)
        #expect(
            try database.query("SELECT (SELECT x FROM a) + (SELECT y FROM b) AS s").first?.get("s", as: Int64.self) == 3
        )
        #expect(throws: SQLError.self) {
            try database.execute("INSERT INTO a VALUES (?); INSERT INTO a VALUES (5)", [4])
        }
        #expect(try database.query("SELECT count(*) AS n FROM a").first?.get("n", as: Int64.self) == 1)
        // Trailing semicolons and blanks are still one statement.
        try database.execute("INSERT INTO a VALUES (?);  \n", [6])
        try database.execute("   ")
        #expect(try database.query("  ").isEmpty)
    }

    @Test("the number of values must match the parameters")
    func parameterCount() throws {
        let database = try SQLiteDatabase.inMemory()
        #expect {
            try database.query("SELECT ?, ?", [1])
        } throws: { error in
            error as? SQLError == .misuse(message: "the statement has 2 parameters but 1 values were given")
        }
        #expect(throws: SQLError.self) { try database.query("SELECT 1", [1]) }
        #expect(throws: SQLError.self) { try database.execute("CREATE TABLE t (x); INSERT INTO t VALUES (?)") }
    }

    @Test("a syntax error is .statement with SQLite's message")
    func syntaxError() throws {
        let database = try SQLiteDatabase.inMemory()
        #expect(throws: SQLError.statement(message: "near \"SELEKT\": syntax error")) { try database.query("SELEKT 1") }
        #expect(throws: SQLError.statement(message: "no such table: t")) { try database.query("SELECT * FROM t") }
    }

    @Test("forEachRow streams rows in order, may use the database, and stops when the body throws")
    func streaming() throws {
        struct Stop: Error {}
        let database = try SQLiteDatabase.inMemory()
        try database.execute("CREATE TABLE t (n INTEGER); CREATE TABLE log (n INTEGER)")
        try database.transaction {
            for n in 1...100 { try database.execute("INSERT INTO t VALUES (?)", [.integer(Int64(n))]) }
        }
        var seen: [Int64] = []
        try database.forEachRow("SELECT n FROM t WHERE n > ? ORDER BY n", [90]) { row in
            let n: Int64 = try row.get("n")
            seen.append(n)
            // Re-entrant use: another statement, and the same SQL nested.
            try database.execute("INSERT INTO log VALUES (?)", [.integer(n)])
            _ = try database.query("SELECT n FROM t WHERE n > ? ORDER BY n", [99])
        }
        #expect(seen == Array(91...100))
        #expect(try database.query("SELECT count(*) AS c FROM log").first?.get("c", as: Int64.self) == 10)

        var count = 0
        #expect(throws: Stop.self) {
            try database.forEachRow("SELECT n FROM t") { _ in
                count += 1
                if count == 3 { throw Stop() }
            }
        }
        #expect(count == 3)
        // The statement was reset: the same query runs again from the start.
        #expect(try database.query("SELECT n FROM t").count == 100)
    }

    @Test(
        "more distinct statements than the cache holds, and a cache of zero, give the same results", arguments: [0, 4])
    func statementCache(capacity: Int) throws {
        let database = try SQLiteDatabase.inMemory(configuration: SQLiteConfiguration(statementCacheCapacity: capacity))
        try database.execute("CREATE TABLE t (n INTEGER)")
        for round in 0..<3 {
            for k in 0..<10 {
                try database.execute("INSERT INTO t VALUES (? + \(k))", [.integer(Int64(round * 100))])
            }
        }
        let sum: Int64 = try #require(try database.query("SELECT sum(n) AS s FROM t").first).get("s")
        #expect(sum == 3 * 45 + 10 * (0 + 100 + 200))
    }

    @Test("a schema change after a statement was cached is picked up")
    func schemaChange() throws {
        let database = try SQLiteDatabase.inMemory()
        try database.execute("CREATE TABLE t (a)")
        try database.execute("INSERT INTO t VALUES (1)")
        #expect(try database.query("SELECT * FROM t").first?.count == 1)
        try database.execute("ALTER TABLE t ADD COLUMN b DEFAULT 2")
        let row = try #require(try database.query("SELECT * FROM t").first)
        #expect(row.columns.names == ["a", "b"])
        #expect(row.values == [.integer(1), .integer(2)])
    }
}
