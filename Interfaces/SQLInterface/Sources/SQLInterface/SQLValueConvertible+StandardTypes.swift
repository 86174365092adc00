// The conformances of the standard types that rows are read into. They are
// strict on purpose: an `integer` column read as `String` is a bug to report,
// not a value to convert (SQLValueConvertible explains the rules).

extension SQLValue: SQLValueConvertible {
    /// Any storage class.
    public static var sqlTypeDescription: String { "any value" }
    /// The value itself.
    public var sqlValue: SQLValue { self }
    /// Accepts any stored value.
    /// - Parameter sqlValue: the stored value.
    public init?(sqlValue: SQLValue) { self = sqlValue }
}

extension Int64: SQLValueConvertible {
    /// Reads `integer`.
    public static var sqlTypeDescription: String { "integer" }
    /// Stored as `integer`.
    public var sqlValue: SQLValue { .integer(self) }
    /// Reads an `integer`.
    /// - Parameter sqlValue: the stored value.
    public init?(sqlValue: SQLValue) {
        guard case .integer(let value) = sqlValue else { return nil }
        self = value
    }
}

extension Int: SQLValueConvertible {
    /// Reads `integer` that fits in `Int`.
    public static var sqlTypeDescription: String { "integer" }
    /// Stored as `integer`.
    public var sqlValue: SQLValue { .integer(Int64(self)) }
    /// Reads an `integer` that fits in `Int`.
    /// - Parameter sqlValue: the stored value.
    public init?(sqlValue: SQLValue) {
        guard case .integer(let value) = sqlValue, let fitting = Int(exactly: value) else { return nil }
        self = fitting
    }
}

extension Double: SQLValueConvertible {
    /// Reads `real`.
    public static var sqlTypeDescription: String { "real" }
    /// Stored as `real`.
    public var sqlValue: SQLValue { .real(self) }
    /// Reads a `real`.
    /// - Parameter sqlValue: the stored value.
    public init?(sqlValue: SQLValue) {
        guard case .real(let value) = sqlValue else { return nil }
        self = value
    }
}

extension String: SQLValueConvertible {
    /// Reads `text`.
    public static var sqlTypeDescription: String { "text" }
    /// Stored as `text`.
    public var sqlValue: SQLValue { .text(self) }
    /// Reads a `text`.
    /// - Parameter sqlValue: the stored value.
    public init?(sqlValue: SQLValue) {
        guard case .text(let value) = sqlValue else { return nil }
        self = value
    }
}

extension Array: SQLValueConvertible where Element == UInt8 {
    /// Reads `blob`.
    public static var sqlTypeDescription: String { "blob" }
    /// Stored as `blob`.
    public var sqlValue: SQLValue { .blob(self) }
    /// Reads a `blob`.
    /// - Parameter sqlValue: the stored value.
    public init?(sqlValue: SQLValue) {
        guard case .blob(let value) = sqlValue else { return nil }
        self = value
    }
}

extension Bool: SQLValueConvertible {
    /// Reads the integers 0 and 1, the way SQLite stores booleans.
    public static var sqlTypeDescription: String { "boolean (integer 0 or 1)" }
    /// Stored as `integer` 1 or 0.
    public var sqlValue: SQLValue { .integer(self ? 1 : 0) }
    /// Reads `integer` 0 or 1; any other integer is refused, not guessed.
    /// - Parameter sqlValue: the stored value.
    public init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .integer(0): self = false
        case .integer(1): self = true
        default: return nil
        }
    }
}

extension Optional: SQLValueConvertible where Wrapped: SQLValueConvertible {
    /// Reads what `Wrapped` reads, or `null`.
    public static var sqlTypeDescription: String { "\(Wrapped.sqlTypeDescription) or null" }
    /// `nil` is stored as `null`.
    public var sqlValue: SQLValue { self?.sqlValue ?? .null }
    /// Reads `null` as `nil`, anything else as `Wrapped` does.
    /// - Parameter sqlValue: the stored value.
    public init?(sqlValue: SQLValue) {
        if case .null = sqlValue {
            self = .none
        } else if let wrapped = Wrapped(sqlValue: sqlValue) {
            self = .some(wrapped)
        } else {
            return nil
        }
    }
}
