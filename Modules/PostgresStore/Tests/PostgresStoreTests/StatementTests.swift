import ShareKitPostgresStore
import ShareKitSQLInterface
import Testing

@Suite("statements, rows and error messages")
struct StatementTests {
    @Test("? placeholders work beside literals, identifiers, comments and dollar quotes that hold ? and $1")
    func trickyPlaceholders() throws {
        let fixture = try PostgresFixture(schema: [#"CREATE TABLE "odd?" ("what?" TEXT, "$1" TEXT)"#])
        defer { fixture.remove() }
        let db = fixture.database
        try db.execute(
            #"INSERT INTO "odd?" ("what?", "$1") VALUES (? /* ? */, '?' || ?) -- ? $1"#, ["first", "second"])
        let row = try #require(
            try db.query(
                #"""
                SELECT "what?" AS a, "$1" AS b, '?' AS c, E'\'?' AS d, $x$ ? $1 $x$ AS e, ? AS f, ?::bigint + 1 AS g
                FROM "odd?" WHERE "what?" = ?
                """#, ["sixth", "41", "first"]
            ).first)
        #expect(
            row.values == [
                .text("first"), .text("?second"), .text("?"), .text("'?"), .text(" ? $1 "), .text("sixth"),
                .integer(42),
            ])
        let error = #expect(throws: SQLError.self) { try db.query("SELECT ?, ?", [1]) }
        #expect(error == .misuse(message: "the statement has 2 placeholders but 1 values were given"))
    }

    @Test("a script without values runs every statement; values bind to one statement only")
    func scripts() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        let db = fixture.database
        try db.execute(
            """
            CREATE TABLE a (x TEXT DEFAULT ';');
            CREATE FUNCTION twice(n BIGINT) RETURNS BIGINT AS $$ SELECT n * 2; $$ LANGUAGE sql;
            INSERT INTO a VALUES ('x;y'), (DEFAULT);
            """)
        #expect(try db.query("SELECT x FROM a ORDER BY x").map { try $0.get("x", as: String.self) } == [";", "x;y"])
        #expect(try db.query("SELECT twice(?) AS t", [21]).first?.value("t") == .integer(42))
        #expect(throws: SQLError.self) {
            try db.execute("INSERT INTO a VALUES (?); INSERT INTO a VALUES (?)", ["1", "2"])
        }
    }

    @Test("a prepared statement whose table another connection changed is prepared again, not failed")
    func stalePreparedStatement() throws {
        let fixture = try PostgresFixture(schema: ["CREATE TABLE t (id BIGINT PRIMARY KEY); INSERT INTO t VALUES (1)"])
        defer { fixture.remove() }
        let select = "SELECT * FROM t WHERE id = ?"
        #expect(try fixture.database.query(select, [1]).first?.columns.names == ["id"])
        try fixture.psql("ALTER TABLE t ADD COLUMN note TEXT DEFAULT 'n'")
        let row = try #require(try fixture.database.query(select, [1]).first)
        #expect(row.columns.names == ["id", "note"])
        #expect(try row.value("note") == .text("n"))
    }

    @Test("changes counts the rows of the last INSERT, UPDATE or DELETE")
    func changes() throws {
        let fixture = try PostgresFixture(schema: PostgresFixture.itemsSchema)
        defer { fixture.remove() }
        let db = fixture.database
        #expect(try db.execute("INSERT INTO items (writer, n) SELECT 'w', g FROM generate_series(1, 5) g").changes == 5)
        #expect(try db.execute("UPDATE items SET n = n + 10 WHERE n > ?", [2]).changes == 3)
        #expect(try db.execute("DELETE FROM items WHERE n < ?", [100]).changes == 5)
        #expect(db.changes == 5)
    }

    @Test("forEachRow streams rows, and its body may run statements on the same database, in a transaction too")
    func streaming() throws {
        let fixture = try PostgresFixture(
            schema: PostgresFixture.itemsSchema + ["CREATE TABLE copies (n BIGINT NOT NULL)"])
        defer { fixture.remove() }
        let db = fixture.database
        try db.execute("INSERT INTO items (writer, n) SELECT 'w', g FROM generate_series(1, 2000) g")
        var seen: [Int64] = []
        try db.forEachRow("SELECT n FROM items WHERE n <= ? ORDER BY n", [1000]) { row in
            let n: Int64 = try row.get("n")
            seen.append(n)
            if n.isMultiple(of: 10) { try db.execute("INSERT INTO copies (n) VALUES (?)", [.integer(n)]) }
        }
        #expect(seen == Array(1...1000))
        try db.transaction {
            try db.forEachRow("SELECT n FROM items WHERE n > 1000 ORDER BY n") { row in
                try db.forEachRow("SELECT ? + 0 AS n", [try row.value("n")]) { inner in
                    try db.execute("INSERT INTO copies (n) VALUES (?)", [try inner.value("n")])
                }
            }
        }
        let tens: Int = (1...100).map { $0 * 10 }.reduce(0, +)
        let upper: Int = (1001...2000).reduce(0, +)
        #expect(try fixture.psql("SELECT count(*), sum(n) FROM copies") == "1100|\(tens + upper)")
    }

    @Test("a row handler that throws stops the rows; its error comes out unchanged and the connection is fine")
    func stopEarly() throws {
        struct Enough: Error, Equatable {}
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        let db = fixture.database
        var count = 0
        #expect(throws: Enough()) {
            try db.forEachRow("SELECT g FROM generate_series(1, 100000) g") { _ in
                count += 1
                if count == 10 { throw Enough() }
            }
        }
        #expect(count == 10)
        #expect(try db.query("SELECT 2 AS two").first?.value("two") == .integer(2))
    }

    @Test("errors name the problem but never a bound value")
    func redaction() throws {
        let fixture = try PostgresFixture(schema: ["CREATE TABLE t (n BIGINT)"])
        defer { fixture.remove() }
        let db = fixture.database
        let secret = "refresh-token-0123456789"
        let error = #expect(throws: SQLError.self) {
            try db.execute("INSERT INTO t (n) VALUES (?::bigint)", [.text(secret)])
        }
        guard case .statement(let message) = try #require(error) else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(message.contains("invalid input syntax for type bigint"), "\(message)")
        #expect(!message.contains(secret), "\(message)")
        let syntax = #expect(throws: SQLError.self) { try db.query("SELEC 1") }
        guard case .statement(let syntaxMessage) = try #require(syntax) else {
            Issue.record("\(String(describing: syntax))")
            return
        }
        #expect(syntaxMessage.contains("syntax error"))
    }
}
