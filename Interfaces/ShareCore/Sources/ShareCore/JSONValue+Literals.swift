import Foundation

/// Literals for building JSON in code: `["status": "sent", "kept": false,
/// "size": 42, "thread_id": nil, "files": ["a", "b"]]` is a ``JSONValue``.
/// Values that are not literals go in through ``init(_:)-(String?)`` and
/// its siblings, where nil becomes `null`.
extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// `nil` is `null`.
    /// - Parameter nilLiteral: the literal.
    public init(nilLiteral: ()) { self = .null }

    /// `true` or `false`.
    /// - Parameter value: the literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }

    /// A whole number.
    /// - Parameter value: the literal.
    public init(integerLiteral value: Int64) { self = .integer(value) }

    /// A number with a fraction.
    /// - Parameter value: the literal.
    public init(floatLiteral value: Double) { self = .number(value) }

    /// A string.
    /// - Parameter value: the literal.
    public init(stringLiteral value: String) { self = .string(value) }

    /// An array.
    /// - Parameter elements: the literal's elements.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }

    /// An object; a name written twice keeps its last value.
    /// - Parameter elements: the literal's members.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        var members: [String: JSONValue] = [:]
        for (name, value) in elements { members[name] = value }
        self = .object(members)
    }

    /// A string, or `null` for nil.
    /// - Parameter text: the text.
    public init(_ text: String?) { self = text.map(JSONValue.string) ?? .null }

    /// A whole number, or `null` for nil.
    /// - Parameter number: the number.
    public init(_ number: Int64?) { self = number.map(JSONValue.integer) ?? .null }

    /// A whole number, or `null` for nil.
    /// - Parameter number: the number.
    public init(_ number: Int?) { self = number.map { .integer(Int64($0)) } ?? .null }

    /// `true` or `false`, or `null` for nil.
    /// - Parameter flag: the value.
    public init(_ flag: Bool?) { self = flag.map(JSONValue.bool) ?? .null }

    /// An array of strings.
    /// - Parameter texts: the strings.
    public init(_ texts: [String]) { self = .array(texts.map(JSONValue.string)) }

    /// Any `Encodable` value as JSON (encoded, then read back as a value).
    /// - Parameter value: the value.
    /// - Throws: `EncodingError` when the value cannot be encoded (a number
    ///   that is not finite), `DecodingError` when what it encodes to is not JSON.
    public init(encoding value: some Encodable) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: try JSONEncoder().encode(value))
    }
}
