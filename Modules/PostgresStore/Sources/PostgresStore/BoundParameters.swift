import CShareKitPostgres
import ShareKitSQLInterface

/// The values of one statement in PostgreSQL's binary parameter format,
/// with the type each one is sent as.
///
/// Every value travels beside the statement text, never inside it:
/// `integer` as `int8`, `real` as `float8`, `text` as `text`, `blob` as
/// `bytea`, all in binary form (exact, no escaping), and `null` as an
/// untyped NULL whose type PostgreSQL infers from where it is used. An
/// `int8` meets `integer` and `smallint` columns through PostgreSQL's
/// cross-type comparisons and assignment casts (a value that does not fit
/// the column is refused by the server, never cut).
struct BoundParameters {
    /// PostgreSQL type OIDs (`pg_type.oid`) of the built-in types used here.
    enum TypeID {
        static let unspecified: Oid = 0
        static let bool: Oid = 16
        static let bytea: Oid = 17
        static let int8: Oid = 20
        static let int2: Oid = 21
        static let int4: Oid = 23
        static let text: Oid = 25
        static let oid: Oid = 26
        static let float4: Oid = 700
        static let float8: Oid = 701
        static let numeric: Oid = 1700
    }

    /// The type of each parameter, as the statement is prepared with.
    private(set) var types: [Oid] = []
    private var lengths: [Int32] = []
    private var offsets: [Int?] = []
    // All values, one after the other; never empty, so that a zero-length
    // value still gets a non-null pointer (a null pointer means SQL NULL).
    private var storage: [UInt8] = [0]

    /// Encodes the values.
    /// - Parameter values: one per placeholder.
    /// - Throws: ``ShareKitSQLInterface/SQLError/misuse(message:)`` for text with a
    ///   NUL character (PostgreSQL's text cannot hold one) or a value over
    ///   the protocol's 1 GiB limit.
    init(_ values: [SQLValue]) throws {
        for (index, value) in values.enumerated() {
            switch value {
            case .null:
                types.append(TypeID.unspecified)
                lengths.append(0)
                offsets.append(nil)
            case .integer(let integer):
                try append(TypeID.int8, withUnsafeBytes(of: integer.bigEndian) { Array($0) }, index: index)
            case .real(let real):
                try append(TypeID.float8, withUnsafeBytes(of: real.bitPattern.bigEndian) { Array($0) }, index: index)
            case .text(let text):
                let utf8 = Array(text.utf8)
                if utf8.contains(0) {
                    throw SQLError.misuse(
                        message: "value \(index + 1) is text with a NUL character, which PostgreSQL's text "
                            + "cannot hold; bind it as a blob")
                }
                try append(TypeID.text, utf8, index: index)
            case .blob(let bytes):
                try append(TypeID.bytea, bytes, index: index)
            }
        }
    }

    /// The number of values.
    var count: Int { types.count }

    /// A key for the prepared statement of `text` with these types.
    func statementKey(_ text: String) -> String {
        text + "\u{0}" + types.map(String.init).joined(separator: ",")
    }

    private mutating func append(_ type: Oid, _ bytes: [UInt8], index: Int) throws {
        // The protocol's lengths are 32-bit, and the server takes no field over 1 GiB.
        guard bytes.count < 1 << 30 else {
            throw SQLError.misuse(message: "value \(index + 1) is \(bytes.count) bytes, over PostgreSQL's 1 GiB limit")
        }
        types.append(type)
        lengths.append(Int32(bytes.count))
        offsets.append(storage.count)
        storage += bytes
    }

    /// Calls `body` with the C arrays `PQexecParams` and its siblings take:
    /// values (null for NULL), their lengths and their formats (all binary).
    func withArrays<R>(
        _ body: (
            _ values: UnsafePointer<UnsafePointer<CChar>?>?, _ lengths: UnsafePointer<Int32>?,
            _ formats: UnsafePointer<Int32>?
        ) throws -> R
    ) rethrows -> R {
        try storage.withUnsafeBytes { raw in
            let base = raw.baseAddress!.assumingMemoryBound(to: CChar.self)
            let pointers: [UnsafePointer<CChar>?] = offsets.map { offset in offset.map { base + $0 } }
            let formats = [Int32](repeating: 1, count: count)
            return try pointers.withUnsafeBufferPointer { values in
                try lengths.withUnsafeBufferPointer { lengths in
                    try formats.withUnsafeBufferPointer { formats in
                        try body(values.baseAddress, lengths.baseAddress, formats.baseAddress)
                    }
                }
            }
        }
    }
}
