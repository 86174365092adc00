import ShareKitSQLInterface
import ShareKitSQLiteStore
import ShareKitSQLiteStoreTesting
import ShareKitSystemTesting
import Testing

@Suite("values survive a round trip through the file")
struct ValueRoundTripTests {
    /// Stores `value`, reads it back from a fresh connection (so nothing is
    /// served from memory), and returns it with SQLite's own `typeof()`.
    private func roundTrip(_ value: SQLValue) throws -> (SQLValue, String) {
        let temporary = try TemporaryDatabase(schema: ["CREATE TABLE t (v)"])  // no type: no affinity conversion
        defer { temporary.remove() }
        try temporary.database.execute("INSERT INTO t (v) VALUES (?)", [value])
        try temporary.database.close()
        let reopened = try SQLiteDatabase(path: temporary.path)
        defer { try? reopened.close() }
        let row = try #require(try reopened.query("SELECT v, typeof(v) AS type FROM t").first)
        return (try row.value("v"), try row.get("type"))
    }

    @Test(
        "integers, including the Int64 extremes", arguments: [Int64.min, -1, 0, 1, 42, Int64(Int32.max) + 1, Int64.max])
    func integers(_ integer: Int64) throws {
        let (value, type) = try roundTrip(.integer(integer))
        #expect(value == .integer(integer))
        #expect(type == "integer")
    }

    @Test(
        "reals, including infinities and the smallest subnormal",
        arguments: [
            0.5, -1.25, Double.pi, 1e300, -Double.greatestFiniteMagnitude, Double.leastNonzeroMagnitude,
            Double.infinity, -Double.infinity,
        ])
    func reals(_ real: Double) throws {
        let (value, type) = try roundTrip(.real(real))
        #expect(value == .real(real))
        #expect(type == "real")
    }

    @Test(
        "text: empty, unicode, embedded NUL, long",
        arguments: [
            "", "plain", "héllo wörld", "日本語のテキスト", "emoji 👩‍👩‍👧 and flags 🇩🇪", "a\u{0}b\u{0}", "\u{0}",
            "line\nbreak\ttab 'quote' \"double\" ; DROP TABLE t; --", String(repeating: "x", count: 1_000_000),
        ])
    func text(_ text: String) throws {
        let (value, type) = try roundTrip(.text(text))
        #expect(value == .text(text))
        #expect(type == "text")  // empty text stays text, not NULL
    }

    @Test(
        "blobs: empty, zero bytes, every byte value, large",
        arguments: [
            [UInt8](), [0], [0, 0, 0, 0], [0, 1, 0, 2, 0], Array(0...255), Array(repeating: 0xFF, count: 3),
            (0..<2_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7919) },
        ])
    func blobs(_ bytes: [UInt8]) throws {
        let (value, type) = try roundTrip(.blob(bytes))
        #expect(value == .blob(bytes))
        #expect(type == "blob")  // an empty blob stays a blob, not NULL
    }

    @Test("null")
    func null() throws {
        let (value, type) = try roundTrip(.null)
        #expect(value == .null)
        #expect(type == "null")
    }

    @Test("NaN cannot be stored: SQLite turns it into NULL")
    func notANumber() throws {
        let (value, _) = try roundTrip(.real(.nan))
        #expect(value == .null)
    }

    @Test("literals and Swift values make the expected SQL values")
    func literalsAndConversions() throws {
        let values: [SQLValue] = [nil, 7, 2.5, "text", SQLValue(true), SQLValue(Int(3)), SQLValue([UInt8]([1, 2]))]
        #expect(values == [.null, .integer(7), .real(2.5), .text("text"), .integer(1), .integer(3), .blob([1, 2])])
        #expect(SQLValue(String?.none) == .null)
        #expect(SQLValue(Optional("x")) == .text("x"))
    }

    @Test("several values in one row, bound by position")
    func severalValues() throws {
        let temporary = try TemporaryDatabase(schema: ["CREATE TABLE t (a, b, c, d, e)"])
        defer { temporary.remove() }
        let values: [SQLValue] = [.integer(-5), .real(0.25), .text("z\u{0}z"), .blob([0, 0]), .null]
        try temporary.database.execute("INSERT INTO t VALUES (?, ?, ?, ?, ?)", values)
        #expect(try temporary.database.query("SELECT * FROM t").first?.values == values)
        // The same values bound as parameters come back as the same values.
        let echoed = try temporary.database.query("SELECT ?, ?, ?, ?, ?", values)
        #expect(echoed.first?.values == values)
    }
}
