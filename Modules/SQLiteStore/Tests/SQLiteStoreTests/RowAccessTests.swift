import ShareKitSQLInterface
import ShareKitSQLiteStore
import ShareKitSystemTesting
import Testing

@Suite("reading rows by name and index")
struct RowAccessTests {
    private func row() throws -> SQLRow {
        let database = try SQLiteDatabase.inMemory()
        return try #require(
            try database.query(
                "SELECT 42 AS id, 'alex' AS name, 1.5 AS score, x'00ff' AS data, NULL AS note, 1 AS flag, 7 AS other"
            ).first)
    }

    @Test("typed reads by name and by index")
    func typedReads() throws {
        let row = try row()
        #expect(try row.get("id", as: Int64.self) == 42)
        #expect(try row.get("id", as: Int.self) == 42)
        #expect(try row.get("name", as: String.self) == "alex")
        #expect(try row.get("score", as: Double.self) == 1.5)
        #expect(try row.get("data", as: [UInt8].self) == [0x00, 0xFF])
        #expect(try row.get("note", as: String?.self) == nil)
        #expect(try row.get("name", as: String?.self) == "alex")
        #expect(try row.get("flag", as: Bool.self) == true)
        #expect(try row.get(at: 1, as: String.self) == "alex")
        #expect(try row.value(at: 4) == .null)
        #expect(try row.value("note") == .null)
        let inferred: Int64 = try row.get("id")
        #expect(inferred == 42)
        #expect(row.columns.names == ["id", "name", "score", "data", "note", "flag", "other"])
        #expect(row.count == 7)
    }

    @Test("a missing column is a clear error, by name and by index")
    func missingColumn() throws {
        let row = try row()
        #expect {
            try row.get("nmae", as: String.self)
        } throws: { error in
            guard case SQLError.noSuchColumn(let column) = error else { return false }
            return column.contains("nmae") && column.contains("name")
        }
        #expect {
            try row.value(at: 7)
        } throws: { error in
            guard case SQLError.noSuchColumn(let column) = error else { return false }
            return column.contains("7") && "\(error)".contains("7 columns")
        }
        #expect(throws: SQLError.self) { try row.value(at: -1) }
    }

    @Test(
        "a type mismatch names the column and both types, never the value",
        arguments: [
            ("name", "integer", "text"), ("id", "text", "integer"), ("note", "text", "null"),
            ("score", "integer", "real"),
            ("other", "boolean (integer 0 or 1)", "integer"), ("data", "text", "blob"),
        ])
    func typeMismatch(column: String, expected: String, found: String) throws {
        let row = try row()
        let error = #expect(throws: SQLError.self) {
            switch expected {
            case "integer": _ = try row.get(column, as: Int64.self)
            case "text": _ = try row.get(column, as: String.self)
            default: _ = try row.get(column, as: Bool.self)
            }
        }
        #expect(error == .typeMismatch(column: column, expected: expected, found: found))
        let message = String(describing: try #require(error))
        #expect(message == "column \(column) holds \(found), expected \(expected)")
        #expect(!message.contains("alex"))
    }

    @Test("an optional read of another type is still a mismatch")
    func optionalMismatch() throws {
        let row = try row()
        #expect(throws: SQLError.typeMismatch(column: "name", expected: "integer or null", found: "text")) {
            try row.get("name", as: Int64?.self)
        }
        #expect(throws: SQLError.typeMismatch(column: "name (index 1)", expected: "integer", found: "text")) {
            try row.get(at: 1, as: Int64.self)
        }
    }

    @Test("with duplicate column names the first wins; the rest are read by index")
    func duplicateNames() throws {
        let database = try SQLiteDatabase.inMemory()
        let row = try #require(try database.query("SELECT 1 AS id, 2 AS id").first)
        #expect(try row.get("id", as: Int64.self) == 1)
        #expect(try row.get(at: 1, as: Int64.self) == 2)
    }

    @Test("the rows of a result share one column list")
    func sharedColumns() throws {
        let database = try SQLiteDatabase.inMemory()
        let rows = try database.query(
            "SELECT value AS n FROM (SELECT 1 AS value UNION ALL SELECT 2 UNION ALL SELECT 3)")
        #expect(rows.count == 3)
        #expect(Set(rows.map(\.columns)).count == 1)
    }
}
