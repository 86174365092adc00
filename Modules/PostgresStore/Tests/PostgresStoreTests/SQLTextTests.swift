import Foundation
import ShareKitSQLInterface
import Testing

@testable import ShareKitPostgresStore

@Suite("? placeholders become $n outside literals, identifiers and comments")
struct SQLTextTests {
    private func single(_ sql: String) throws -> SQLStatementText {
        let statements = try SQLText.statements(in: sql)
        try #require(statements.count == 1, "\(statements)")
        return statements[0]
    }

    @Test("placeholders are numbered in order")
    func numbered() throws {
        let statement = try single("INSERT INTO t (a, b, c) VALUES (?, ?::int, coalesce(?, 'x'))")
        #expect(statement.text == "INSERT INTO t (a, b, c) VALUES ($1, $2::int, coalesce($3, 'x'))")
        #expect(statement.parameterCount == 3)
        #expect(statement.keyword == "INSERT")
    }

    @Test(
        "a ? inside a literal, quoted identifier or comment stays as it is",
        arguments: [
            "SELECT '?', ?", "SELECT 'it''s ?', ?", "SELECT \"what?\" FROM t WHERE a = ?",
            "SELECT \"a\"\"?\" FROM t WHERE a = ?", "SELECT E'\\'?', ?", "SELECT e'\\\\', ?",
            "SELECT $$ ? $$, ?", "SELECT $fn$ it's ? $$ $fn$, ?", "SELECT ? -- why?\n",
            "SELECT /* a /* nested ? */ still ? */ ?", "SELECT U&'\\0041?', ?",
        ])
    func untouched(_ sql: String) throws {
        let statement = try single(sql)
        #expect(statement.parameterCount == 1)
        #expect(statement.text.contains("$1"))
        #expect(!statement.text.contains("$2"))
        // Everything but the one placeholder is unchanged.
        let placeholder = try #require(statement.text.range(of: "$1"))
        #expect(statement.text.replacingCharacters(in: placeholder, with: "?") == sql)
    }

    @Test("a standard string ends at its quote even after a backslash")
    func standardStringBackslash() throws {
        // With standard_conforming_strings, '\' is a string of one backslash.
        let statement = try single("SELECT '\\', ?")
        #expect(statement.text == "SELECT '\\', $1")
    }

    @Test("a $ inside a word is part of it; a hand-written $n is refused")
    func dollars() throws {
        #expect(try single("SELECT a$1, ? FROM t$x").text == "SELECT a$1, $1 FROM t$x")
        #expect(try single("SELECT 5 $ 3, ?").parameterCount == 1)
        #expect(throws: SQLError.self) { try SQLText.statements(in: "SELECT * FROM t WHERE id = $1") }
        #expect(throws: SQLError.self) { try SQLText.statements(in: "SELECT ?, $2") }
    }

    @Test("; splits statements only outside literals and comments; empty ones are dropped")
    func splits() throws {
        let statements = try SQLText.statements(
            in: """
                CREATE TABLE a (x TEXT DEFAULT ';'); -- one; two
                ;;
                /* ; */ INSERT INTO a VALUES ('x;y');
                CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql;
                -- only a comment
                """)
        #expect(statements.map(\.keyword) == ["CREATE", "INSERT", "CREATE"])
        #expect(statements[1].text.contains("'x;y'"))
        #expect(statements[2].text.contains("SELECT 1; $$"))
    }

    @Test("the first word is found after comments, in upper case")
    func keywords() throws {
        #expect(try single("  /* c */ -- d\n begin").keyword == "BEGIN")
        #expect(try single("(select 1)").keyword == "SELECT")
        #expect(try single("with x as (select 1) insert into t select * from x").keyword == "WITH")
        #expect(try SQLText.statements(in: " -- nothing\n /* at all */ ").isEmpty)
    }
}
