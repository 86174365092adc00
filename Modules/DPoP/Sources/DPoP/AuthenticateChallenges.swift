/// Reads the challenges of a `WWW-Authenticate` field value (RFC 9110
/// section 11.6.1): `scheme [token68 | param=value, …]`, several challenges
/// separated by commas, values as tokens or quoted strings.
///
/// Tolerant of whatever a server or proxy sends: unknown syntax ends the
/// current challenge instead of failing, and the input is bounded.
struct AuthenticateChallenges {
    /// One challenge: its scheme (lowercase) and parameters (names lowercase).
    struct Challenge: Equatable {
        var scheme: String
        var parameters: [String: String]
    }

    /// The longest field value read; longer values are read only this far.
    static let maxLength = 8192

    /// The challenges in order.
    let challenges: [Challenge]

    /// Parses a field value.
    /// - Parameter value: the `WWW-Authenticate` value (several fields joined by commas).
    init(_ value: String) {
        var scanner = Scanner(Array(value.utf8.prefix(Self.maxLength)))
        var result: [Challenge] = []
        while true {
            scanner.skip { $0 == 0x20 || $0 == 0x09 || $0 == 0x2C }
            guard let scheme = scanner.token() else {
                if scanner.atEnd { break }
                scanner.advance()  // unparseable byte: skip it
                continue
            }
            var challenge = Challenge(scheme: scheme.lowercased(), parameters: [:])
            // Parameters: name = value, separated by commas, until a token
            // that is not followed by "=" (the next challenge's scheme).
            while true {
                scanner.skip { $0 == 0x20 || $0 == 0x09 || $0 == 0x2C }
                let mark = scanner.position
                guard let name = scanner.token() else { break }
                scanner.skip { $0 == 0x20 || $0 == 0x09 }
                guard scanner.consume(0x3D) else {
                    scanner.position = mark
                    break
                }
                scanner.skip { $0 == 0x20 || $0 == 0x09 }
                if let value = scanner.quotedString() ?? scanner.token() {
                    challenge.parameters[name.lowercased()] = value
                } else {
                    // token68 padding ("abc==") or garbage: end this challenge.
                    scanner.skip { $0 != 0x2C }
                }
            }
            result.append(challenge)
        }
        challenges = result
    }

    /// A byte cursor over the field value.
    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { position >= bytes.count }

        mutating func advance() { position += 1 }

        mutating func skip(while predicate: (UInt8) -> Bool) {
            while position < bytes.count, predicate(bytes[position]) { position += 1 }
        }

        mutating func consume(_ byte: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        /// A `token` (RFC 9110 section 5.6.2).
        mutating func token() -> String? {
            let start = position
            skip(while: Self.isTChar)
            return position > start ? String(decoding: bytes[start..<position], as: UTF8.self) : nil
        }

        /// A `quoted-string` with its escapes resolved.
        mutating func quotedString() -> String? {
            guard consume(0x22) else { return nil }
            var out = [UInt8]()
            while position < bytes.count {
                let b = bytes[position]
                position += 1
                if b == 0x22 { return String(decoding: out, as: UTF8.self) }
                if b == 0x5C, position < bytes.count {
                    out.append(bytes[position])
                    position += 1
                } else {
                    out.append(b)
                }
            }
            return nil  // unterminated
        }

        static func isTChar(_ b: UInt8) -> Bool {
            switch b {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
            case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: return true
            default: return false
            }
        }
    }
}
