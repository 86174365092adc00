import ShareKitWireContract

/// JSON text written member by member: the fast path of ``JSONBody/encode(_:)``
/// for the answers every message request sends (createMessage, createThread,
/// listMessages), an implementation detail of the Codable API. `JSONEncoder`
/// with sorted keys spends more time than the request spends in SQLite.
///
/// The writer of each type (``JSONOutputWritable``) writes its members in
/// sorted order; strings are escaped exactly as `JSONEncoder` escapes them
/// (`\"`, `\\`, `\b \t \n \f \r`, other control characters as lowercase
/// `\u00XX`, everything else, `/` included, as is), so the bytes are the
/// ones `JSONEncoder` makes of the same value (MessageJSONTests holds them to it).
struct JSONOutput {
    /// The UTF-8 text so far.
    private(set) var bytes: [UInt8] = []
    /// Whether the object or array just opened has no member yet.
    private var first = true

    /// An empty output.
    /// - Parameter capacity: bytes to reserve.
    init(capacity: Int = 512) {
        bytes.reserveCapacity(capacity)
    }

    /// Writes `{`, the members `body` writes, and `}`.
    mutating func object(_ body: (inout JSONOutput) -> Void) {
        container(open: "{", close: "}", body)
    }

    /// Writes `[`, the elements `body` writes (each with ``element(_:)``), and `]`.
    mutating func array(_ body: (inout JSONOutput) -> Void) {
        container(open: "[", close: "]", body)
    }

    /// Writes `open`, what `body` writes (its first member or element with
    /// no comma before it), and `close`.
    private mutating func container(open: Unicode.Scalar, close: Unicode.Scalar, _ body: (inout JSONOutput) -> Void) {
        bytes.append(UInt8(ascii: open))
        first = true
        body(&self)
        bytes.append(UInt8(ascii: close))
        first = false
    }

    /// Starts an array element; `body` writes its value.
    mutating func element(_ body: (inout JSONOutput) -> Void) {
        separator()
        body(&self)
    }

    /// Writes `"key":` and the value `body` writes.
    mutating func member(_ key: String, _ body: (inout JSONOutput) -> Void) {
        separator()
        string(key)
        bytes.append(UInt8(ascii: ":"))
        body(&self)
    }

    /// An array member of values with a writer of their own.
    mutating func member(_ key: String, elements: [some JSONOutputWritable]) {
        member(key) { json in
            json.array { json in
                for value in elements { json.element { value.write(to: &$0) } }
            }
        }
    }

    /// A string member.
    mutating func member(_ key: String, _ value: String) {
        member(key) { $0.string(value) }
    }

    /// A string member, `null` when absent.
    mutating func member(_ key: String, _ value: String?) {
        member(key) { output in
            if let value { output.string(value) } else { output.null() }
        }
    }

    /// An integer member.
    mutating func member(_ key: String, _ value: Int64) {
        member(key) { $0.bytes.append(contentsOf: String(value).utf8) }
    }

    /// Writes `null`.
    mutating func null() {
        bytes.append(contentsOf: "null".utf8)
    }

    /// Writes a string value.
    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [
                    UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)],
                    hex[Int(byte & 0x0F)],
                ])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func separator() {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
    }
}

/// A contract body that ``JSONOutput`` writes instead of `JSONEncoder`,
/// with the same bytes: members in sorted order, optionals as the type's
/// `encode(to:)` writes them.
protocol JSONOutputWritable: Encodable {
    /// Writes the value.
    /// - Parameter output: where.
    func write(to output: inout JSONOutput)
}

extension AttachmentBody: JSONOutputWritable {
    func write(to output: inout JSONOutput) {
        output.object { json in
            json.member("content_type", contentType)
            if let digestAlgorithm { json.member("digest_algorithm", digestAlgorithm) }
            json.member("file_name", fileName)
            json.member("sha256", sha256)
            json.member("size", size)
            json.member("upload_id", uploadID)
        }
    }
}

extension MessageBody: JSONOutputWritable {
    /// `thread_id` is `null` when absent, `web_url` left out, as `encode(to:)` does.
    func write(to output: inout JSONOutput) {
        output.object { json in
            json.member("attachments", elements: attachments)
            json.member("channel_id", channelID)
            json.member("client_msg_id", clientMsgID)
            json.member("created_at", createdAt)
            json.member("id", id)
            json.member("sender", sender)
            json.member("text", text)
            json.member("thread_id", threadID)
            if let webURL { json.member("web_url", webURL) }
        }
    }
}

extension ThreadBody: JSONOutputWritable {
    func write(to output: inout JSONOutput) {
        output.object { json in
            json.member("channel_id", channelID)
            json.member("created_at", createdAt)
            json.member("id", id)
            json.member("title", title)
        }
    }
}

extension MessageEnvelope: JSONOutputWritable {
    func write(to output: inout JSONOutput) {
        output.object { json in json.member("message") { message.write(to: &$0) } }
    }
}

extension ThreadCreated: JSONOutputWritable {
    func write(to output: inout JSONOutput) {
        output.object { json in
            json.member("message") { message.write(to: &$0) }
            json.member("thread") { thread.write(to: &$0) }
        }
    }
}

extension MessageList: JSONOutputWritable {
    /// `next` is `null` on the last page, as `encode(to:)` does.
    func write(to output: inout JSONOutput) {
        output.object { json in
            json.member("messages", elements: messages)
            json.member("next", next)
        }
    }
}
