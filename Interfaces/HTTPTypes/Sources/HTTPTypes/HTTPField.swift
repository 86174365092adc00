/// One header line: a name and its value.
public struct HTTPField: Hashable, Sendable {
    /// The field name as written; compare names with ``HTTPFields``, which ignores ASCII case.
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

    /// Whether a byte may appear in a field name or method token
    /// (`tchar`, RFC 9110 section 5.6.2).
    /// - Parameter byte: an ASCII byte.
    /// - Returns: true for a token character.
    public static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: return true
        default: return false
        }
    }

    /// Whether the name is a token and the value has no line break or NUL,
    /// so the field cannot inject another header line into a request.
    public var isValid: Bool {
        !name.isEmpty && name.utf8.allSatisfy(Self.isTokenCharacter)
            && !value.utf8.contains { $0 == 0x0A || $0 == 0x0D || $0 == 0x00 }
    }
}
