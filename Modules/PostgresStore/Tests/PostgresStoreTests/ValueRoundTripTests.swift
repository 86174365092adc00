import ShareKitPostgresStore
import ShareKitSQLInterface
import ShareKitSystemTesting
import Testing

@Suite("values survive a round trip through PostgreSQL")
struct ValueRoundTripTests {
    /// Stores each value in a column of `type`, reads it back through a
    /// second connection (nothing served from memory) with the server's
    /// own `pg_typeof`.
    private func roundTrip(_ values: [SQLValue], type: String) throws -> [(SQLValue, String)] {
        let fixture = try PostgresFixture(schema: ["CREATE TABLE t (position INTEGER PRIMARY KEY, v \(type))"])
        defer { fixture.remove() }
        for (position, value) in values.enumerated() {
            try fixture.database.execute(
                "INSERT INTO t (position, v) VALUES (?, ?)", [.integer(Int64(position)), value])
        }
        let reader = try fixture.connect()
        defer { try? reader.close() }
        return try reader.query("SELECT v, pg_typeof(v)::text AS type FROM t ORDER BY position").map {
            (try $0.value("v"), try $0.get("type"))
        }
    }

    @Test("integers, including the Int64 extremes, as bigint")
    func integers() throws {
        let integers: [Int64] = [.min, -1, 0, 1, 42, Int64(Int32.max) + 1, .max]
        let read = try roundTrip(integers.map { .integer($0) }, type: "BIGINT")
        #expect(read.map(\.0) == integers.map { .integer($0) })
        #expect(read.allSatisfy { $0.1 == "bigint" })
    }

    @Test("reals, including infinities, the smallest subnormal and NaN, as double precision")
    func reals() throws {
        let reals = [
            0.5, -1.25, Double.pi, 1e300, -Double.greatestFiniteMagnitude, Double.leastNonzeroMagnitude,
            Double.infinity, -Double.infinity, 0.1 + 0.2,
        ]
        let read = try roundTrip(reals.map { .real($0) } + [.real(.nan)], type: "DOUBLE PRECISION")
        #expect(read.dropLast().map(\.0) == reals.map { .real($0) })
        guard case .real(let nan) = read.last?.0 else {
            Issue.record("NaN came back as \(String(describing: read.last))")
            return
        }
        #expect(nan.isNaN)
        #expect(read.allSatisfy { $0.1 == "double precision" })
    }

    @Test("text: empty, accents, emoji, quotes and backslashes, and 4 MiB")
    func texts() throws {
        let large = String(repeating: "ßé€😀'\\\"?$1;", count: 4 << 20 / 24)
        let texts = ["", "plain", "ß é € 😀 ∑", "it's \"quoted\" \\ and ? and $1 and ;", "\n\t\r", large]
        let read = try roundTrip(texts.map { .text($0) }, type: "TEXT")
        #expect(read.map(\.0) == texts.map { .text($0) })
        #expect(read.allSatisfy { $0.1 == "text" })
    }

    @Test("blobs: empty, every byte value, and 8 MiB of noise")
    func blobs() throws {
        let words = (0..<(1 << 20)).map { _ in UInt64.random(in: .min ... .max) }
        let noise = words.withUnsafeBytes { Array($0) }
        let blobs: [[UInt8]] = [[], [0], Array(0...255), noise]
        let read = try roundTrip(blobs.map { .blob($0) }, type: "BYTEA")
        #expect(read.map(\.0) == blobs.map { .blob($0) })
        #expect(read.allSatisfy { $0.1 == "bytea" })
    }

    @Test("NULL in a column of every type reads as null, and as nil through an Optional")
    func nulls() throws {
        let fixture = try PostgresFixture(
            schema: ["CREATE TABLE t (i BIGINT, r DOUBLE PRECISION, s TEXT, b BYTEA, f BOOLEAN, n NUMERIC)"])
        defer { fixture.remove() }
        try fixture.database.execute("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)", [nil, nil, nil, nil, nil, nil])
        let row = try #require(try fixture.database.query("SELECT * FROM t").first)
        #expect(row.values == [.null, .null, .null, .null, .null, .null])
        #expect(try row.get("i", as: Int64?.self) == nil)
        #expect(try row.get("s", as: String?.self) == nil)
        #expect(try row.get("b", as: [UInt8]?.self) == nil)
        #expect(try row.get("f", as: Bool?.self) == nil)
    }

    @Test("a value is typed by what it is bound as")
    func boundTypes() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        let cases: [(SQLValue, String)] = [
            (.integer(7), "bigint"), (.real(1.5), "double precision"), (.text("x"), "text"), (.blob([1]), "bytea"),
        ]
        for (value, type) in cases {
            let row = try #require(
                try fixture.database.query("SELECT ? AS v, pg_typeof(?)::text AS t", [value, value]).first)
            #expect(try row.value("v") == value)
            #expect(try row.get("t", as: String.self) == type)
        }
    }

    @Test("columns of other types: smallint and integer as integer, boolean as 1 or 0, numeric by its scale")
    func columnTypes() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        let row = try #require(
            try fixture.database.query(
                """
                SELECT 7::smallint AS small, (-2147483648)::integer AS int4, true AS yes, false AS no,
                       1.5::real AS float4, 12345678901234::numeric AS whole, 2.50::numeric AS scaled,
                       (-9223372036854775808)::numeric AS lowest, 'NaN'::numeric AS nan,
                       sum(x) AS total, count(*) AS rows, 42::oid AS oid
                FROM (VALUES (9223372036854775807::bigint), (-1)) AS v(x)
                """
            ).first)
        #expect(try row.value("small") == .integer(7))
        #expect(try row.value("int4") == .integer(-2_147_483_648))
        #expect(try row.get("yes", as: Bool.self) == true)
        #expect(try row.get("no", as: Bool.self) == false)
        #expect(try row.value("float4") == .real(1.5))
        #expect(try row.value("whole") == .integer(12_345_678_901_234))
        #expect(try row.value("scaled") == .real(2.5))
        #expect(try row.value("lowest") == .integer(.min))
        #expect(try row.get("nan", as: Double.self).isNaN)
        // sum(bigint) is numeric: exact while it fits.
        #expect(try row.value("total") == .integer(.max - 1))
        #expect(try row.value("rows") == .integer(2))
        #expect(try row.value("oid") == .integer(42))
    }

    @Test("a number from the server that does not fit 64 bits is an error naming the column, not a crash")
    func outOfRange() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        for sql in [
            "SELECT 9223372036854775808::numeric AS big", "SELECT (-9223372036854775809)::numeric AS big",
            "SELECT sum(x) AS big FROM (VALUES (9223372036854775807::bigint), (1)) AS v(x)",
            "SELECT 1e40::numeric AS big",
        ] {
            let error = #expect(throws: SQLError.self) { try fixture.database.query(sql) }
            guard case .typeMismatch(let column, _, _) = try #require(error) else {
                Issue.record("\(sql): \(String(describing: error))")
                continue
            }
            #expect(column == "big")
        }
        // The connection is fine afterwards.
        #expect(try fixture.database.query("SELECT 1 AS one").first?.value("one") == .integer(1))
    }

    @Test("other types come back as their text: timestamptz in UTC ISO form, uuid, jsonb")
    func otherTypes() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        let row = try #require(
            try fixture.database.query(
                """
                SELECT '2026-12-01 10:00:00+02'::timestamptz AS at,
                       'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid AS id, ?::jsonb AS doc
                """, [.text(#"{"b": 1, "a": [true]}"#)]
            ).first)
        #expect(try row.get("at", as: String.self) == "2026-12-01 08:00:00+00")
        #expect(try row.get("id", as: String.self) == "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")
        #expect(try row.get("doc", as: String.self) == #"{"a": [true], "b": 1}"#)
    }

    @Test("a value that does not fit its column is refused by the server, never cut")
    func narrowColumns() throws {
        let fixture = try PostgresFixture(schema: ["CREATE TABLE t (small INTEGER, flag BOOLEAN)"])
        defer { fixture.remove() }
        #expect(throws: SQLError.self) {
            try fixture.database.execute("INSERT INTO t (small) VALUES (?)", [.integer(Int64(Int32.max) + 1)])
        }
        try fixture.database.execute("INSERT INTO t (small) VALUES (?)", [.integer(Int64(Int32.max))])
        #expect(
            try fixture.database.query("SELECT small FROM t").map { try $0.get("small", as: Int64.self) } == [
                2_147_483_647
            ])
    }

    @Test("text with a NUL character is refused before it is sent, and nothing is stored")
    func nulInText() throws {
        let fixture = try PostgresFixture(schema: ["CREATE TABLE t (s TEXT)"])
        defer { fixture.remove() }
        let error = #expect(throws: SQLError.self) {
            try fixture.database.execute("INSERT INTO t (s) VALUES (?)", [.text("a\u{0}b")])
        }
        guard case .misuse(let message) = try #require(error) else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(message.contains("NUL"))
        #expect(try fixture.database.query("SELECT s FROM t").isEmpty)
    }
}
