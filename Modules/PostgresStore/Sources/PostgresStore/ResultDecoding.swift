import CShareKitPostgres
import ShareKitSQLInterface

/// Reads rows of a `PGresult` (text format) into ``ShareKitSQLInterface/SQLValue``s.
///
/// Each column's PostgreSQL type decides the storage class: `smallint`,
/// `integer`, `bigint` and `oid` are `integer`; `boolean` is `integer` 1 or
/// 0 (what `Bool` reads); `real` and `double precision` are `real`;
/// `numeric` is `integer` when written without a decimal point (as
/// `sum(bigint)` and `count` results are) and `real` otherwise; `bytea` is
/// `blob`; every other type (`text`, `varchar`, `json`, `timestamptz`,
/// `uuid`, …) is `text` in PostgreSQL's own output form. Numbers are
/// range-checked: a value that does not fit an `Int64` is an error naming
/// the column, never a trap or a wrapped number.
struct ResultDecoding {
    /// The result's columns.
    let columns: SQLColumns
    private let types: [Oid]
    private let result: OpaquePointer

    /// Reads the column names and types of a result.
    /// - Parameter result: a `PGresult` with rows (`PGRES_TUPLES_OK` or `PGRES_SINGLE_TUPLE`).
    init(_ result: OpaquePointer) {
        self.result = result
        let count = PQnfields(result)
        columns = SQLColumns(
            (0..<count).map { index in PQfname(result, index).map { String(cString: $0) } ?? "column\(index)" })
        types = (0..<count).map { PQftype(result, $0) }
    }

    /// Reads a result whose column names the caller already has (the next
    /// row of a statement in single-row mode).
    init(_ result: OpaquePointer, columns: SQLColumns) {
        self.result = result
        self.columns = columns
        types = (0..<PQnfields(result)).map { PQftype(result, $0) }
    }

    /// The number of rows in the result.
    var rowCount: Int32 { PQntuples(result) }

    /// One row.
    /// - Parameter row: its index.
    /// - Returns: the row's values.
    /// - Throws: ``ShareKitSQLInterface/SQLError/typeMismatch(column:expected:found:)``
    ///   for a number that does not fit, or a `bytea` that is not valid hex.
    func row(_ row: Int32) throws -> SQLRow {
        var values: [SQLValue] = []
        values.reserveCapacity(types.count)
        for column in types.indices {
            let index = Int32(column)
            if PQgetisnull(result, row, index) != 0 {
                values.append(.null)
                continue
            }
            let length = Int(PQgetlength(result, row, index))
            guard let start = PQgetvalue(result, row, index) else {
                values.append(.null)
                continue
            }
            let bytes = UnsafeRawBufferPointer(start: start, count: length).bindMemory(to: UInt8.self)
            values.append(try Self.value(bytes, type: types[column], column: columns.names[column]))
        }
        return SQLRow(columns: columns, values: values)
    }

    /// One value from its text form.
    static func value(_ bytes: UnsafeBufferPointer<UInt8>, type: Oid, column: String) throws -> SQLValue {
        switch type {
        case BoundParameters.TypeID.int2, BoundParameters.TypeID.int4, BoundParameters.TypeID.int8,
            BoundParameters.TypeID.oid:
            guard let integer = integer(bytes) else { throw outOfRange(column, found: "an integer") }
            return .integer(integer)
        case BoundParameters.TypeID.bool:
            guard bytes.count == 1, bytes[0] == UInt8(ascii: "t") || bytes[0] == UInt8(ascii: "f") else {
                throw SQLError.typeMismatch(column: column, expected: "boolean t or f", found: "another boolean form")
            }
            return .integer(bytes[0] == UInt8(ascii: "t") ? 1 : 0)
        case BoundParameters.TypeID.float4, BoundParameters.TypeID.float8:
            guard let real = Double(String(decoding: bytes, as: UTF8.self)) else {
                throw SQLError.typeMismatch(column: column, expected: "a floating-point number", found: "another form")
            }
            return .real(real)
        case BoundParameters.TypeID.numeric:
            // NaN and the infinities are spelt out; a scale shows as a decimal point.
            if bytes.contains(UInt8(ascii: ".")) || bytes.contains(where: Scanner.isLetter) {
                guard let real = Double(String(decoding: bytes, as: UTF8.self)) else {
                    throw SQLError.typeMismatch(column: column, expected: "a number", found: "another numeric form")
                }
                return .real(real)
            }
            guard let integer = integer(bytes) else { throw outOfRange(column, found: "numeric") }
            return .integer(integer)
        case BoundParameters.TypeID.bytea:
            guard let blob = hexBytes(bytes) else {
                throw SQLError.typeMismatch(column: column, expected: "bytea in hex form", found: "another form")
            }
            return .blob(blob)
        default:
            return .text(String(decoding: bytes, as: UTF8.self))
        }
    }

    private static func outOfRange(_ column: String, found: String) -> SQLError {
        .typeMismatch(column: column, expected: "an integer within 64 bits", found: "\(found) out of that range")
    }

    /// A decimal integer with an optional sign; nil when it is not one or
    /// does not fit in 64 bits.
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var index = 0
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        guard index < bytes.count else { return nil }
        // Accumulated negatively, so Int64.min fits.
        var value: Int64 = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (added, overflow2) = shifted.subtractingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            value = added
            index += 1
        }
        if negative { return value }
        return value == Int64.min ? nil : -value
    }

    /// The bytes of `bytea`'s hex output (`\x` and two hex digits a byte).
    static func hexBytes(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard text.count >= 2, text.count % 2 == 0, text[0] == UInt8(ascii: "\\"), text[1] == UInt8(ascii: "x")
        else { return nil }
        var bytes = [UInt8]()
        bytes.reserveCapacity(text.count / 2 - 1)
        var index = 2
        while index < text.count {
            guard let high = nibble(text[index]), let low = nibble(text[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private enum Scanner {
        static func isLetter(_ byte: UInt8) -> Bool {
            (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
        }
    }
}
