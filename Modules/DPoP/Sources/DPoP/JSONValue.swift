/// A parsed JSON value, as ``JSONParser`` produces it from hostile input.
indirect enum JSONValue: Equatable, Sendable {
    /// A string.
    case string(String)
    /// A number; `integer` holds it exactly when it is written without
    /// fraction or exponent and fits in 64 bits.
    case number(Double, integer: Int64?)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null
    /// An array.
    case array([JSONValue])
    /// An object; member names are unique (duplicates are refused).
    case object([String: JSONValue])

    /// The string, if this is one.
    var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The members, if this is an object.
    var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }
}
