/// One header line: a name and its value, as sent or to be sent.
public struct HTTPHeaderField: Hashable, Sendable {
    /// The field name as written (compare names with ``HTTPHeaders``, which
    /// ignores ASCII case).
    public var name: String
    /// The field value, without surrounding whitespace.
    public var value: String

    /// Makes a field.
    /// - Parameters:
    ///   - name: the field name.
    ///   - value: the field value.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
