/// One row of a query result, read by column name or index.
///
/// Reads are typed and strict: asking for a column that is not there or for
/// a type the stored value does not have throws a ``SQLError`` that names the
/// column and the types, never the value.
///
/// ```swift
/// let id: Int64 = try row.get("id")
/// let note = try row.get("note", as: String?.self)
/// ```
public struct SQLRow: Sendable, Hashable {
    /// The columns of the result this row belongs to.
    public let columns: SQLColumns
    /// The values in column order.
    public let values: [SQLValue]

    /// Makes a row.
    /// - Parameters:
    ///   - columns: the result's columns.
    ///   - values: one value per column.
    public init(columns: SQLColumns, values: [SQLValue]) {
        precondition(columns.count == values.count, "a row needs one value per column")
        self.columns = columns
        self.values = values
    }

    /// The number of columns.
    public var count: Int { values.count }

    /// The raw value of a column.
    /// - Parameter column: the column name.
    /// - Returns: the stored value.
    /// - Throws: ``SQLError/noSuchColumn(_:)`` when the result has no such column.
    public func value(_ column: String) throws -> SQLValue {
        guard let index = columns.index(of: column) else {
            throw SQLError.noSuchColumn("'\(column)' (the result has \(columns.names.joined(separator: ", ")))")
        }
        return values[index]
    }

    /// The raw value at a position.
    /// - Parameter index: the zero-based column index.
    /// - Returns: the stored value.
    /// - Throws: ``SQLError/noSuchColumn(_:)`` when the index is out of range.
    public func value(at index: Int) throws -> SQLValue {
        guard values.indices.contains(index) else {
            throw SQLError.noSuchColumn("at index \(index) (the result has \(values.count) columns)")
        }
        return values[index]
    }

    /// A column read as a Swift type.
    /// - Parameters:
    ///   - column: the column name.
    ///   - type: the type to read (inferred when omitted); an `Optional` also reads `null`.
    /// - Returns: the value.
    /// - Throws: ``SQLError/noSuchColumn(_:)``, or ``SQLError/typeMismatch(column:expected:found:)``
    ///   when the stored value has another type.
    public func get<T: SQLValueConvertible>(_ column: String, as type: T.Type = T.self) throws -> T {
        try convert(try value(column), column: column)
    }

    /// The column at a position read as a Swift type.
    /// - Parameters:
    ///   - index: the zero-based column index.
    ///   - type: the type to read (inferred when omitted); an `Optional` also reads `null`.
    /// - Returns: the value.
    /// - Throws: ``SQLError/noSuchColumn(_:)``, or ``SQLError/typeMismatch(column:expected:found:)``
    ///   when the stored value has another type.
    public func get<T: SQLValueConvertible>(at index: Int, as type: T.Type = T.self) throws -> T {
        let value = try value(at: index)
        return try convert(value, column: "\(columns.names[index]) (index \(index))")
    }

    private func convert<T: SQLValueConvertible>(_ value: SQLValue, column: String) throws -> T {
        guard let converted = T(sqlValue: value) else {
            throw SQLError.typeMismatch(column: column, expected: T.sqlTypeDescription, found: value.typeName)
        }
        return converted
    }
}
