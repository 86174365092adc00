import CShareKitSQLite
import Glibc
import ShareKitSQLInterface

/// One prepared SQLite statement: binding values, reading columns.
///
/// Not thread-safe; it belongs to a ``Connection`` and is used under the
/// database's lock.
final class PreparedStatement {
    /// The `sqlite3_stmt`.
    let handle: OpaquePointer
    /// Whether the statement begins, ends or marks a transaction; such text
    /// runs only when ``Connection`` issues it itself.
    let isTransactionControl: Bool
    /// Whether the statement leaves the database as it is
    /// (`sqlite3_stmt_readonly`), so a reading connection may run it.
    let isReadOnly: Bool
    /// Whether a caller is stepping it now (a cached statement cannot serve
    /// a second, nested use of the same SQL at the same time).
    var inUse = false
    /// When the cache last handed it out, for evicting the least recently used.
    var lastUsed: UInt64 = 0

    /// Wraps a freshly prepared statement.
    /// - Parameter handle: the statement.
    init(_ handle: OpaquePointer) {
        self.handle = handle
        isTransactionControl =
            sqlite3_sql(handle).map { StatementKeyword.isTransactionControl(String(cString: $0)) }
            ?? false
        isReadOnly = sqlite3_stmt_readonly(handle) != 0
    }

    /// `SQLITE_TRANSIENT`: SQLite copies the bytes before the bind call
    /// returns. The C macro is a cast of -1 that Swift cannot import. Swift
    /// lends a string's or array's bytes only for the length of a closure,
    /// so SQLite must not keep the pointer.
    static var transient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }

    /// The number of `?` parameters.
    var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// Binds values to the parameters `?1…?n`.
    /// - Parameter values: one value per parameter.
    /// - Returns: `SQLITE_OK`, or the result code of the first failing bind.
    func bind(_ values: [SQLValue]) -> Int32 {
        for (offset, value) in values.enumerated() {
            let rc = bind(value, at: Int32(offset + 1))
            if rc != SQLITE_OK { return rc }
        }
        return SQLITE_OK
    }

    private func bind(_ value: SQLValue, at index: Int32) -> Int32 {
        switch value {
        case .null:
            return sqlite3_bind_null(handle, index)
        case .integer(let integer):
            return sqlite3_bind_int64(handle, index, integer)
        case .real(let real):
            return sqlite3_bind_double(handle, index, real)
        case .text(var text):
            // The UTF-8 bytes are passed with their length, so embedded NULs
            // survive; a native string lends them without copying.
            return text.withUTF8 { bytes in
                // A null pointer would bind NULL, not empty text.
                guard let base = bytes.baseAddress, !bytes.isEmpty else {
                    return sqlite3_bind_text(handle, index, "", 0, Self.transient)
                }
                let characters = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
                return sqlite3_bind_text64(
                    handle, index, characters, sqlite3_uint64(bytes.count), Self.transient, UInt8(SQLITE_UTF8))
            }
        case .blob(let bytes):
            // A null pointer would bind NULL, not an empty blob.
            guard !bytes.isEmpty else { return sqlite3_bind_zeroblob(handle, index, 0) }
            return bytes.withUnsafeBytes { raw in
                sqlite3_bind_blob64(handle, index, raw.baseAddress, sqlite3_uint64(raw.count), Self.transient)
            }
        }
    }

    /// The columns of the last execution, kept for the next: building them
    /// (strings and a dictionary) costs more than comparing them.
    private var cachedColumns: SQLColumns?

    /// The result's column names.
    /// - Returns: the columns; every row of an execution shares them, and
    ///   executions share them while the names stay the same (SQLite may
    ///   prepare a statement again after a schema change, so they are compared).
    func columns() -> SQLColumns {
        let count = Int(sqlite3_column_count(handle))
        if let cached = cachedColumns, cached.count == count,
            cached.names.indices.allSatisfy({ index in
                guard let name = sqlite3_column_name(handle, Int32(index)) else { return false }
                return cached.names[index].withCString { strcmp($0, name) == 0 }
            })
        {
            return cached
        }
        let columns = SQLColumns(
            (0..<Int32(count)).map { index in
                sqlite3_column_name(handle, index).map { String(cString: $0) } ?? "column\(index)"
            })
        cachedColumns = columns
        return columns
    }

    /// The current row (after `sqlite3_step` returned `SQLITE_ROW`).
    /// - Parameter columns: the result's columns.
    /// - Returns: the row.
    func row(_ columns: SQLColumns) -> SQLRow {
        SQLRow(columns: columns, values: (0..<Int32(columns.count)).map(value(at:)))
    }

    private func value(at index: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT:
            // Pointer first, then length (SQLite's documented order); the
            // length, not a terminator, ends the text, so NULs inside survive.
            guard let text = sqlite3_column_text(handle, index) else { return .text("") }
            let count = Int(sqlite3_column_bytes(handle, index))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            guard let blob = sqlite3_column_blob(handle, index) else { return .blob([]) }
            let count = Int(sqlite3_column_bytes(handle, index))
            return .blob(Array(UnsafeRawBufferPointer(start: blob, count: count)))
        default:
            return .null
        }
    }

    /// Makes the statement ready for its next use and drops the bound values
    /// (which may be secrets) from SQLite's memory.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Frees the statement; it must not be used afterwards.
    func finalize() {
        sqlite3_finalize(handle)
    }
}
