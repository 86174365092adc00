/// Any JSON document as a value: for the few places that pass JSON through
/// without a schema of their own (an event's push payload, a debugging
/// command that prints what the server said, `--json` output assembled from
/// several parts).
///
/// Everything with a known shape is a `Codable` type of its own; this type
/// is the one representation of JSON without one, so nothing needs untyped
/// dictionaries of `Any`. ``init(strictJSON:)`` parses hostile bytes under
/// strict limits and ``canonicalJSON`` writes the canonical form. Numbers
/// keep the difference between whole numbers (``integer(_:)``, exactly as
/// written when they fit in 64 bits) and others (``number(_:)``), so an id
/// or a byte count never passes through a `Double`.
public enum JSONValue: Hashable, Sendable, Codable, CustomStringConvertible {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number that fits in 64 bits.
    case integer(Int64)
    /// Any other number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object. Encode with sorted keys (`JSONEncoder.OutputFormatting.sortedKeys`,
    /// as the API client does) for the same text from equal values.
    case object([String: JSONValue])

    /// Decodes any JSON value.
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` when the input is not JSON.
    public init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var values: [JSONValue] = []
            if let count = array.count { values.reserveCapacity(count) }
            while !array.isAtEnd { values.append(try array.decode(JSONValue.self)) }
            self = .array(values)
            return
        }
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [String: JSONValue] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(JSONValue.self, forKey: key) }
            self = .object(members)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? single.decode(Double.self) {
            self = .number(value)
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    /// Encodes the value.
    /// - Parameter encoder: the encoder.
    /// - Throws: `EncodingError` when a number is not finite.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .integer(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .number(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .string(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .array(let values):
            var array = encoder.unkeyedContainer()
            for value in values { try array.encode(value) }
        case .object(let members):
            var object = encoder.container(keyedBy: AnyKey.self)
            for (name, value) in members { try object.encode(value, forKey: AnyKey(name)) }
        }
    }

    /// The member `name` of an object; nil for a missing member or another kind of value.
    public subscript(name: String) -> JSONValue? {
        if case .object(let members) = self { return members[name] }
        return nil
    }

    /// The text of a string value.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The value of a whole number (also of a number written with a
    /// fraction of zero, such as `1.0`, when it is within 64 bits).
    public var integerValue: Int64? {
        switch self {
        case .integer(let value): return value
        case .number(let value):
            guard value.rounded(.towardZero) == value, value >= -9.2e18, value <= 9.2e18 else { return nil }
            return Int64(value)
        default: return nil
        }
    }

    /// The elements of an array value.
    public var arrayValue: [JSONValue]? {
        if case .array(let values) = self { return values }
        return nil
    }

    /// The members of an object value.
    public var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// Whether the value is `null`.
    public var isNull: Bool { self == .null }

    /// A short description of the kind of value, never its content (values
    /// can hold anything a server sent, secrets included).
    public var description: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer, .number: return "a number"
        case .string: return "a string"
        case .array(let values): return "an array of \(values.count)"
        case .object(let members): return "an object of \(members.count) members"
        }
    }

    /// A coding key for any member name.
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { return nil }
    }
}
