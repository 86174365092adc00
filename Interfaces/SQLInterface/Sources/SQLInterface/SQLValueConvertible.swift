/// A Swift type that is stored as one ``SQLValue`` and read back from one.
///
/// The standard conformances are strict, so a wrong column type is an error
/// rather than a silent conversion: `Int64` and `Int` read only `integer`,
/// `Double` only `real`, `String` only `text`, `[UInt8]` only `blob`, `Bool`
/// only the integers 0 and 1, and `Optional` adds `null` to its wrapped type.
/// ``SQLRow/get(_:as:)`` turns a refusal into ``SQLError/typeMismatch(column:expected:found:)``.
public protocol SQLValueConvertible: Sendable {
    /// What this type reads, for error messages ("integer", "text or null").
    static var sqlTypeDescription: String { get }

    /// The value to bind or store.
    var sqlValue: SQLValue { get }

    /// Reads a stored value.
    /// - Parameter sqlValue: the stored value.
    /// - Returns: nil when the value has another type than this one reads.
    init?(sqlValue: SQLValue)
}
