/// Header fields in order, with names compared without regard to ASCII case
/// (RFC 9110 section 5.1) and a name allowed more than once.
///
/// A repeated field keeps one entry per line, so ``values(for:)`` returns
/// what each line carried; values are not split at commas because some
/// (`Set-Cookie`, dates) contain commas inside one value.
public struct HTTPFields: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// The fields in the order they were received or added.
    public private(set) var fields: [HTTPField]

    /// Makes a field list.
    /// - Parameter fields: the fields in order.
    public init(_ fields: [HTTPField] = []) { self.fields = fields }

    /// Makes a field list from `name: value` pairs; a name may repeat.
    /// - Parameter elements: the pairs in order.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { HTTPField(name: $0.0, value: $0.1) }
    }

    /// The first value of a field, or nil when it is absent.
    /// - Parameter name: the field name, in any case.
    public subscript(name: String) -> String? {
        fields.first { Self.sameName($0.name, name) }?.value
    }

    /// Every value of a field, one per line, in order.
    /// - Parameter name: the field name, in any case.
    /// - Returns: the values, empty when the field is absent.
    public func values(for name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// Whether a field is present.
    /// - Parameter name: the field name, in any case.
    /// - Returns: true when at least one line has this name.
    public func contains(_ name: String) -> Bool {
        fields.contains { Self.sameName($0.name, name) }
    }

    /// Appends a line, keeping any lines of the same name.
    /// - Parameters:
    ///   - name: the field name.
    ///   - value: the value.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(HTTPField(name: name, value: value))
    }

    /// Replaces every line of a name by one line at the end.
    /// - Parameters:
    ///   - name: the field name, in any case.
    ///   - value: the value.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    /// Removes every line of a name.
    /// - Parameter name: the field name, in any case.
    public mutating func remove(_ name: String) {
        fields.removeAll { Self.sameName($0.name, name) }
    }

    /// The number of lines.
    public var count: Int { fields.count }

    /// Iterates the fields in order.
    /// - Returns: an iterator over the fields.
    public func makeIterator() -> IndexingIterator<[HTTPField]> { fields.makeIterator() }

    /// The field names only: values can hold credentials (`Authorization`,
    /// `DPoP`, cookies), so a field list never prints them.
    public var description: String {
        "HTTPFields(" + fields.map(\.name).joined(separator: ", ") + ")"
    }

    /// Compares two field names without regard to ASCII case, without
    /// allocating lowercased copies.
    /// - Parameters:
    ///   - a: a name.
    ///   - b: another name.
    /// - Returns: true when they name the same field.
    public static func sameName(_ a: String, _ b: String) -> Bool {
        var left = a.utf8.makeIterator()
        var right = b.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return true
            case (let x?, let y?):
                if x != y, lower(x) != lower(y) { return false }
            default: return false
            }
        }
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
    }
}
