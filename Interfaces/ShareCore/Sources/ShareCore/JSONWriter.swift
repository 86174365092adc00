/// Writes compact JSON (no whitespace) into a byte buffer, members in the
/// order they are written.
///
/// The one serializer besides `Codable`: DPoP proofs need a fixed member
/// order (`typ`, `alg`, `jwk`; `jti`, `htm`, …) and no whitespace, which
/// `JSONEncoder` does not promise, and a proof is made for every request,
/// so it is written straight into bytes. ``value(_:)`` writes a
/// ``JSONValue`` in its canonical form.
public struct JSONWriter: Sendable {
    /// The JSON written so far, UTF-8.
    public private(set) var bytes: [UInt8]

    /// Starts an empty document.
    /// - Parameter capacity: bytes to reserve.
    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends text that is already JSON (punctuation, member names, numbers).
    /// - Parameter text: the raw text.
    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends a string value in quotes, escaped per RFC 8259 section 7:
    /// quotation mark, reverse solidus and the control characters below
    /// U+0020 are escaped; everything else is written as UTF-8.
    /// - Parameter value: the string.
    public mutating func string(_ value: String) {
        bytes.append(0x22)
        // Most values (methods, URLs, nonces) need no escape: copy them whole.
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            bytes.append(contentsOf: value.utf8)
            bytes.append(0x22)
            return
        }
        for byte in value.utf8 {
            switch byte {
            case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
            case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x08: bytes.append(contentsOf: [0x5C, 0x62])
            case 0x0C: bytes.append(contentsOf: [0x5C, 0x66])
            case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
            case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
            case 0x00..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(0x22)
    }

    /// Appends bytes that are already JSON (a value written by another writer).
    /// - Parameter json: UTF-8 JSON.
    public mutating func append(_ json: [UInt8]) {
        bytes.append(contentsOf: json)
    }

    /// Appends text known to need no escaping (base64url), without quotes.
    /// - Parameter ascii: the text.
    public mutating func plain(_ ascii: String) {
        bytes.append(contentsOf: ascii.utf8)
    }

    /// Appends the canonical text of a UUID, without quotes.
    /// - Parameter uuid: the id.
    public mutating func uuid(_ uuid: UUIDv7) {
        uuid.appendText(to: &bytes)
    }

    /// Appends an integer.
    /// - Parameter value: the number.
    public mutating func integer(_ value: Int64) {
        if value < 0 { bytes.append(0x2D) }
        let magnitude = value.magnitude
        var divisor: UInt64 = 1
        while divisor <= magnitude / 10 { divisor *= 10 }
        while divisor > 0 {
            bytes.append(0x30 + UInt8((magnitude / divisor) % 10))
            divisor /= 10
        }
    }

    /// Appends a value in canonical form: compact, object members in
    /// ascending order of their names (so equal values give equal bytes),
    /// strings escaped as ``string(_:)`` does. A number that is not finite,
    /// which JSON cannot spell and no parser produces, is written as `null`.
    /// - Parameter value: the value.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: raw("null")
        case .bool(let flag): flag ? raw("true") : raw("false")
        case .integer(let number): integer(number)
        case .number(let number):
            if number.isFinite { plain("\(number)") } else { raw("null") }
        case .string(let text): string(text)
        case .array(let elements):
            bytes.append(0x5B)
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(0x2C) }
                self.value(element)
            }
            bytes.append(0x5D)
        case .object(let members):
            bytes.append(0x7B)
            for (index, name) in members.keys.sorted().enumerated() {
                if index > 0 { bytes.append(0x2C) }
                string(name)
                bytes.append(0x3A)
                if let member = members[name] { self.value(member) }
            }
            bytes.append(0x7D)
        }
    }
}

extension JSONValue {
    /// The value as canonical compact JSON (see ``JSONWriter/value(_:)``), UTF-8.
    public var canonicalJSON: [UInt8] {
        var writer = JSONWriter()
        writer.value(self)
        return writer.bytes
    }
}
