/// Writes compact JSON by hand into a byte buffer.
///
/// Proofs need a fixed member order (`typ`, `alg`, `jwk`; `jti`, `htm`, …)
/// and no whitespace; `JSONSerialization` guarantees neither, and is slow.
struct JSONWriter {
    /// The JSON written so far, UTF-8.
    private(set) var bytes: [UInt8]

    /// Starts an empty document.
    /// - Parameter capacity: bytes to reserve.
    init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends text that is already JSON (punctuation, member names, numbers).
    /// - Parameter text: the raw text.
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends a string value in quotes, escaped per RFC 8259 section 7:
    /// quotation mark, reverse solidus and the control characters below
    /// U+0020 are escaped; everything else is written as UTF-8.
    /// - Parameter value: the string.
    mutating func string(_ value: String) {
        bytes.append(0x22)
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

    /// Appends a string value known to need no escaping (base64url, a UUID).
    /// - Parameter ascii: the string's bytes.
    mutating func plainString(_ ascii: [UInt8]) {
        bytes.append(0x22)
        bytes.append(contentsOf: ascii)
        bytes.append(0x22)
    }

    /// Appends an integer.
    /// - Parameter value: the number.
    mutating func integer(_ value: Int64) {
        if value < 0 { bytes.append(0x2D) }
        var magnitude = value.magnitude
        var digits = [UInt8]()
        repeat {
            digits.append(0x30 + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes.append(contentsOf: digits.reversed())
    }
}
