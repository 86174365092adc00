/// One value as SQLite stores it: the five storage classes.
///
/// Bind values with it (`[.integer(id), .text(name), nil]`, or literals:
/// `[42, "text", 1.5, nil]`) and read them back from an ``SQLRow``.
/// A `Double.nan` cannot be stored: SQLite turns it into `NULL`.
public enum SQLValue: Sendable, Hashable {
    /// SQL `NULL`.
    case null
    /// A signed 64-bit integer.
    case integer(Int64)
    /// An IEEE 754 double.
    case real(Double)
    /// UTF-8 text; may contain NUL characters.
    case text(String)
    /// Raw bytes; may be empty and may contain zero bytes.
    case blob([UInt8])

    /// Makes the value a Swift value is stored as (`SQLValue(userID)`, `SQLValue(true)`).
    /// - Parameter value: the Swift value.
    public init(_ value: some SQLValueConvertible) {
        self = value.sqlValue
    }

    /// The storage class as SQL's `typeof()` names it (`null`, `integer`,
    /// `real`, `text`, `blob`), for error messages that must not show the value.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .integer: "integer"
        case .real: "real"
        case .text: "text"
        case .blob: "blob"
        }
    }
}

extension SQLValue: ExpressibleByNilLiteral {
    /// `nil` is SQL `NULL`.
    /// - Parameter nilLiteral: the literal.
    public init(nilLiteral: ()) { self = .null }
}

extension SQLValue: ExpressibleByIntegerLiteral {
    /// An integer literal is ``integer(_:)``.
    /// - Parameter value: the literal.
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension SQLValue: ExpressibleByFloatLiteral {
    /// A floating-point literal is ``real(_:)``.
    /// - Parameter value: the literal.
    public init(floatLiteral value: Double) { self = .real(value) }
}

extension SQLValue: ExpressibleByStringLiteral {
    /// A string literal is ``text(_:)``.
    /// - Parameter value: the literal.
    public init(stringLiteral value: String) { self = .text(value) }
}
