extension JSONValue {
    /// The deepest nesting ``init(strictJSON:)`` accepts; a DPoP proof needs 2
    /// (`jwk` inside the header), an error body 1.
    public static let strictMaxDepth = 16

    /// Parses one JSON document from an untrusted source (a DPoP proof's
    /// header and payload, an OAuth error body) strictly, per RFC 8259.
    ///
    /// Bounded by design, since proofs are fuzzed: nesting is limited to
    /// ``strictMaxDepth``, duplicate member names are refused (two parsers
    /// could otherwise read different values from one document), strings
    /// must be valid UTF-8 without lone surrogates, a number is at most
    /// 1 KiB of text and finite, and nothing is ever force-unwrapped. A
    /// number written without fraction or exponent that fits in 64 bits is
    /// ``integer(_:)``, exactly; every other number is ``number(_:)``.
    /// Surrounding whitespace is allowed; anything else around the value is not.
    ///
    /// Bodies with a known shape are decoded with `Codable` instead; this is
    /// for the few places that must decide on hostile bytes before trusting
    /// any of them. Failure is nil: callers report their own reason.
    /// - Parameter bytes: UTF-8 JSON.
    public init?(strictJSON bytes: [UInt8]) {
        guard let value = StrictJSONParser.parse(bytes) else { return nil }
        self = value
    }

    /// The value of any number as a `Double` (a whole number may lose
    /// precision beyond 2^53); nil for other kinds of value.
    public var numberValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        default: return nil
        }
    }
}

/// The parser behind ``JSONValue/init(strictJSON:)``: one pass over the
/// bytes, no recursion deeper than ``JSONValue/strictMaxDepth``.
struct StrictJSONParser {
    private let bytes: [UInt8]
    private var index = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Parses one JSON document (surrounding whitespace allowed).
    /// - Parameter bytes: UTF-8 JSON.
    /// - Returns: the value, or nil when the bytes are not exactly one valid JSON value.
    static func parse(_ bytes: [UInt8]) -> JSONValue? {
        var parser = StrictJSONParser(bytes)
        parser.skipWhitespace()
        guard let value = parser.value(depth: 0) else { return nil }
        parser.skipWhitespace()
        // Not a ternary: its `nil` would be JSONValue's nil literal, `.null`.
        guard parser.index == bytes.count else { return nil }
        return value
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let b = current, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { index += 1 }
    }

    private mutating func value(depth: Int) -> JSONValue? {
        guard depth <= JSONValue.strictMaxDepth, let b = current else { return nil }
        switch b {
        case 0x7B: return object(depth: depth + 1)
        case 0x5B: return array(depth: depth + 1)
        case 0x22: return string().map(JSONValue.string)
        case 0x74: return literal("true", .bool(true))
        case 0x66: return literal("false", .bool(false))
        case 0x6E: return literal("null", .null)
        default: return number()
        }
    }

    private mutating func literal(_ word: StaticString, _ result: JSONValue) -> JSONValue? {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return nil }
        let matches = word.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
        }
        guard matches else { return nil }
        index += count
        return result
    }

    private mutating func object(depth: Int) -> JSONValue? {
        index += 1  // {
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if current == 0x7D {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == 0x22, let name = string() else { return nil }
            skipWhitespace()
            guard current == 0x3A else { return nil }
            index += 1
            skipWhitespace()
            guard let member = value(depth: depth) else { return nil }
            guard members.updateValue(member, forKey: name) == nil else { return nil }
            skipWhitespace()
            switch current {
            case 0x2C: index += 1
            case 0x7D:
                index += 1
                return .object(members)
            default: return nil
            }
        }
    }

    private mutating func array(depth: Int) -> JSONValue? {
        index += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == 0x5D {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            guard let element = value(depth: depth) else { return nil }
            elements.append(element)
            skipWhitespace()
            switch current {
            case 0x2C: index += 1
            case 0x5D:
                index += 1
                return .array(elements)
            default: return nil
            }
        }
    }

    private mutating func string() -> String? {
        index += 1  // opening quote
        // Fast path: plain ASCII up to the closing quote, no escapes (every
        // string in a well-formed proof).
        var end = index
        while end < bytes.count, bytes[end] >= 0x20, bytes[end] < 0x80, bytes[end] != 0x22, bytes[end] != 0x5C {
            end += 1
        }
        if end < bytes.count, bytes[end] == 0x22 {
            let text = String(decoding: bytes[index..<end], as: UTF8.self)
            index = end + 1
            return text
        }
        var scalars = String.UnicodeScalarView()
        var run = [UInt8]()  // unescaped UTF-8 bytes not yet decoded
        func flush(_ run: inout [UInt8], into scalars: inout String.UnicodeScalarView) -> Bool {
            guard !run.isEmpty else { return true }
            guard let text = String(validating: run, as: UTF8.self) else { return false }
            scalars.append(contentsOf: text.unicodeScalars)
            run.removeAll(keepingCapacity: true)
            return true
        }
        while let b = current {
            switch b {
            case 0x22:
                index += 1
                guard flush(&run, into: &scalars) else { return nil }
                return String(scalars)
            case 0x5C:
                guard flush(&run, into: &scalars) else { return nil }
                index += 1
                guard let escaped = escape() else { return nil }
                scalars.append(escaped)
            case 0x00..<0x20:
                return nil
            default:
                run.append(b)
                index += 1
            }
        }
        return nil
    }

    /// Reads the escape after a reverse solidus.
    private mutating func escape() -> Unicode.Scalar? {
        guard let b = current else { return nil }
        index += 1
        switch b {
        case 0x22: return "\""
        case 0x5C: return "\\"
        case 0x2F: return "/"
        case 0x62: return "\u{08}"
        case 0x66: return "\u{0C}"
        case 0x6E: return "\n"
        case 0x72: return "\r"
        case 0x74: return "\t"
        case 0x75:
            guard let first = hex4() else { return nil }
            if (0xD800..<0xDC00).contains(first) {
                // A high surrogate must be followed by an escaped low surrogate.
                guard current == 0x5C, index + 1 < bytes.count, bytes[index + 1] == 0x75 else { return nil }
                index += 2
                guard let second = hex4(), (0xDC00..<0xE000).contains(second) else { return nil }
                return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
            }
            return Unicode.Scalar(first)  // nil for a lone low surrogate
        default:
            return nil
        }
    }

    private mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let digit: UInt32
            switch b {
            case 0x30...0x39: digit = UInt32(b - 0x30)
            case 0x41...0x46: digit = UInt32(b - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(b - 0x61 + 10)
            default: return nil
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func number() -> JSONValue? {
        let start = index
        var isInteger = true
        if current == 0x2D { index += 1 }
        guard let first = current, first >= 0x30, first <= 0x39 else { return nil }
        if first == 0x30 {
            index += 1
        } else {
            while let d = current, d >= 0x30, d <= 0x39 { index += 1 }
        }
        if current == 0x2E {
            isInteger = false
            index += 1
            guard let d = current, d >= 0x30, d <= 0x39 else { return nil }
            while let d = current, d >= 0x30, d <= 0x39 { index += 1 }
        }
        if current == 0x65 || current == 0x45 {
            isInteger = false
            index += 1
            if current == 0x2B || current == 0x2D { index += 1 }
            guard let d = current, d >= 0x30, d <= 0x39 else { return nil }
            while let d = current, d >= 0x30, d <= 0x39 { index += 1 }
        }
        // Bounded by the document size; a 1 KiB number is already absurd.
        guard index - start <= 1024 else { return nil }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let double = Double(text), double.isFinite else { return nil }
        if isInteger, let integer = Int64(text) { return .integer(integer) }
        return .number(double)
    }
}
