import ShareKitWireContract

/// The common shape of a createMessage body read without `JSONDecoder`:
/// `{"client_msg_id": "…", "text": "…", "attachments": ["…"]}` in any
/// order, each member at most once, strings without escapes. The fast path
/// of ``JSONBody/decode(_:from:refusingNUL:)`` for ``MessageCreate``, an
/// implementation detail of the Codable API.
///
/// `JSONDecoder` costs more per request than every SQLite statement of
/// createMessage together. This reader takes only bodies whose meaning is
/// plain, and gives up (nil) on anything else: an escape, an unknown or
/// repeated member, another type, bytes that are not UTF-8, a missing
/// `client_msg_id`. `JSONBody.decode` then decodes with `JSONDecoder`, so
/// every body that is refused is refused with the same message as before,
/// and every body read here is read as `JSONDecoder` reads it.
struct MessageBodyParser {
    private let bytes: [UInt8]
    private var index = 0

    /// Reads `bytes` if they are a plain message body.
    /// - Parameter bytes: the request body.
    /// - Returns: the body, or nil when `JSONDecoder` must decide.
    static func parse(_ bytes: [UInt8]) -> MessageDraft.Body? {
        var parser = MessageBodyParser(bytes: bytes)
        return parser.body()
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func body() -> MessageDraft.Body? {
        var clientMsgID: String?
        var text: String?? = .none
        var attachments: [String]?? = .none
        skipSpace()
        guard take(UInt8(ascii: "{")) else { return nil }
        skipSpace()
        if !take(UInt8(ascii: "}")) {
            repeat {
                skipSpace()
                guard let key = string() else { return nil }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipSpace()
                switch key {
                case "client_msg_id":
                    guard clientMsgID == nil, let value = string() else { return nil }
                    clientMsgID = value
                case "text":
                    guard case .none = text else { return nil }
                    if takeNull() {
                        text = .some(nil)
                    } else {
                        guard let value = string() else { return nil }
                        text = .some(value)
                    }
                case "attachments":
                    guard case .none = attachments else { return nil }
                    if takeNull() {
                        attachments = .some(nil)
                    } else {
                        guard let value = stringArray() else { return nil }
                        attachments = .some(value)
                    }
                default:
                    return nil
                }
                skipSpace()
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return nil }
        }
        skipSpace()
        guard index == bytes.count, let clientMsgID else { return nil }
        return MessageDraft.Body(clientMsgID: clientMsgID, text: text ?? nil, attachments: attachments ?? nil)
    }

    /// `["…", …]` of plain strings.
    private mutating func stringArray() -> [String]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var values: [String] = []
        skipSpace()
        if take(UInt8(ascii: "]")) { return values }
        repeat {
            skipSpace()
            guard let value = string() else { return nil }
            values.append(value)
            skipSpace()
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? values : nil
    }

    /// A string without escapes or control characters, valid UTF-8.
    private mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let value = String(validating: bytes[start..<index], as: UTF8.self)
                index += 1
                return value
            }
            guard byte >= 0x20, byte != UInt8(ascii: "\\") else { return nil }
            index += 1
        }
        return nil
    }

    private mutating func takeNull() -> Bool {
        let null: [UInt8] = Array("null".utf8)
        guard bytes.count - index >= null.count, bytes[index..<index + null.count].elementsEqual(null) else {
            return false
        }
        index += null.count
        return true
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// JSON's whitespace: space, tab, line feed, carriage return.
    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }
}
