import Foundation
import ShareKitWireContract
import Testing

@testable import ShareKitReferenceServer

/// The fast paths behind `JSONBody`'s Codable API: the message answers
/// ``JSONOutput`` writes are the bytes `JSONEncoder` makes (and
/// `JSONSerialization` made before), and the request bodies
/// ``MessageBodyParser`` reads read as `JSONDecoder` reads them, or not at
/// all (then `JSONDecoder` decides).
@Suite("reference server: message JSON without Foundation's encoders")
struct MessageJSONTests {
    /// Text that exercises every escaping rule: each control character,
    /// quotes, backslashes, slashes, DEL, line separators, non-BMP scalars.
    static let awkward: String = {
        var text = ""
        for value in 0..<0x20 { text.unicodeScalars.append(Unicode.Scalar(value)!) }
        return text + "\"\\/ <b>&amp;</b> \u{7F}\u{80}\u{2028}\u{2029} é ü 日本 😀 end"
    }()

    private func serialized(_ object: [String: Any]) throws -> [UInt8] {
        Array(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
    }

    /// What `JSONEncoder` makes of a value, as `JSONBody` configures it: the bytes the fast writer must give.
    private func encoded(_ value: some Encodable) throws -> [UInt8] {
        Array(try JSONBody.encoder().encode(value))
    }

    /// What the fast writer makes of a value.
    private func written(_ value: some JSONOutputWritable) -> [UInt8] {
        var output = JSONOutput()
        value.write(to: &output)
        return output.bytes
    }

    static let attachment = AttachmentBody(
        uploadID: "up_1", fileName: "a \"quoted\"/name\n.txt", contentType: "text/plain", size: 1 << 40,
        sha256: String(repeating: "ab", count: 32))

    /// Messages with escapes, unicode, a null thread, a missing web link, no
    /// attachment, and as many as an instance allows.
    static let messages: [MessageBody] = [
        MessageBody(
            id: "m_0192", clientMsgID: awkward, threadID: "t1", channelID: "c1", sender: "alex", text: awkward,
            attachments: [attachment], createdAt: "2026-12-01T10:00:00.123Z", webURL: "/web/m/m_0192"),
        MessageBody(
            id: "m_2", clientMsgID: "k", threadID: nil, channelID: "c\u{1F}1", sender: "é ü", text: "",
            attachments: [], createdAt: "2026-12-01T10:00:00.000Z", webURL: nil),
        MessageBody(
            id: "m_3", clientMsgID: "😀", threadID: nil, channelID: "c1", sender: "bo", text: "a/b\\c\u{7F}",
            attachments: (0..<InstanceSettings().messageMaxAttachments).map { index in
                AttachmentBody(
                    uploadID: "up_\(index)", fileName: index.isMultiple(of: 2) ? awkward : "f\(index).png",
                    contentType: "image/png", size: Int64(index) * 1_000_003,
                    sha256: String(repeating: "0f", count: 32),
                    digestAlgorithm: index.isMultiple(of: 3) ? "sha256-composite" : nil)
            }, createdAt: "2026-12-01T10:00:00.999Z", webURL: "/web/m/m_3?x=\"y\""),
    ]

    @Test("the fast writer gives JSONEncoder's bytes for every message answer", arguments: messages.indices)
    func answersAsJSONEncoder(index: Int) throws {
        let message = Self.messages[index]
        let thread = ThreadBody(id: "t1", channelID: "c2", title: Self.awkward, createdAt: "2026-12-01T10:00:00.000Z")
        #expect(written(message) == (try encoded(message)), "\(String(decoding: written(message), as: UTF8.self))")
        let envelope = MessageEnvelope(message: message)
        #expect(written(envelope) == (try encoded(envelope)))
        let created = ThreadCreated(thread: thread, message: message)
        #expect(written(created) == (try encoded(created)))
        #expect(try JSONBody.encode(created) == (try encoded(created)))
        for next in [nil, "18"] as [String?] {
            let page = MessageList(messages: Array(Self.messages.prefix(index + 1)), next: next)
            #expect(written(page) == (try encoded(page)))
            #expect(try JSONBody.encode(page) == (try encoded(page)))
        }
        let empty = MessageList(messages: [], next: nil)
        #expect(written(empty) == (try encoded(empty)))
    }

    @Test(
        "a message answer is byte for byte what JSONSerialization made of it before the contract's types",
        arguments: [true, false])
    func messageBytes(inThread: Bool) throws {
        let message = MessageBody(
            id: "m_0192", clientMsgID: Self.awkward, threadID: inThread ? "t1" : nil, channelID: "c1", sender: "alex",
            text: Self.awkward, attachments: inThread ? [Self.attachment] : [], createdAt: "2026-12-01T10:00:00.123Z",
            webURL: WebRoutes.messagePath("m_0192"))
        let thread = ThreadBody(id: "t1", channelID: "c2", title: Self.awkward, createdAt: "2026-12-01T10:00:00.000Z")
        let output = try JSONBody.encode(ThreadCreated(thread: thread, message: message))
        let attachments: [[String: Any]] =
            message.attachments.map {
                [
                    "upload_id": $0.uploadID, "file_name": $0.fileName, "content_type": $0.contentType,
                    "size": $0.size, "sha256": $0.sha256,
                ]
            }
        let expected = try serialized([
            "message": [
                "id": message.id, "client_msg_id": message.clientMsgID,
                "thread_id": message.threadID ?? NSNull(), "channel_id": message.channelID, "sender": message.sender,
                "text": message.text, "attachments": attachments, "created_at": message.createdAt,
                "web_url": WebRoutes.messagePath(message.id),
            ] as [String: Any],
            "thread": [
                "id": thread.id, "channel_id": thread.channelID, "title": thread.title, "created_at": thread.createdAt,
            ],
        ])
        #expect(output == expected, "\(String(decoding: output, as: UTF8.self))")
    }

    /// Bodies the plain reader takes: each must read exactly as with JSONDecoder.
    static let plainBodies = [
        #"{"client_msg_id":"a","text":"hi"}"#,
        #" { "text" : "hi" , "client_msg_id" : "a" , "attachments" : [ "up_1" , "up_2" ] } "#,
        "{\n\t\"client_msg_id\": \"é😀\",\r\n\"text\": null, \"attachments\": null}",
        #"{"client_msg_id":"a","attachments":[]}"#,
        #"{"client_msg_id":"","text":""}"#,
        #"{"client_msg_id":"a"}"#,
    ]

    /// Bodies it leaves to JSONDecoder: escapes, unknown or repeated members,
    /// other types, broken JSON, bytes that are not UTF-8.
    static let otherBodies: [[UInt8]] =
        [
            #"{"client_msg_id":"a","text":"line\nbreak"}"#, #"{"client_msg_id":"\u0061"}"#,
            #"{"client_msg_id":"a","extra":1}"#, #"{"client_msg_id":"a","client_msg_id":"b"}"#,
            #"{"client_msg_id":5}"#, #"{"client_msg_id":"a","text":5}"#, #"{"client_msg_id":"a","attachments":"x"}"#,
            #"{"client_msg_id":"a","attachments":[1]}"#, #"{"client_msg_id":"a""#, #"{"text":"no id"}"#,
            #"["client_msg_id"]"#, "", "{}", #"{"client_msg_id":"a"} x"#, #"{"client_msg_id":"a",}"#,
            "{\"client_msg_id\":\"a\",\"text\":\"tab\tinside\"}",
        ].map { Array($0.utf8) } + [[0x7B, 0x22, 0x63, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D]]

    @Test("the plain body reader reads what JSONDecoder reads", arguments: plainBodies)
    func plainBody(text: String) throws {
        let bytes = Array(text.utf8)
        let fast = try #require(MessageBodyParser.parse(bytes))
        let decoded = try JSONDecoder().decode(MessageDraft.Body.self, from: Data(bytes))
        #expect(fast.clientMsgID == decoded.clientMsgID)
        #expect(fast.text == decoded.text)
        #expect(fast.attachments == decoded.attachments)
        #expect(try JSONBody.decode(MessageCreate.self, from: bytes) == decoded)
    }

    @Test("anything but a plain body is left to JSONDecoder", arguments: otherBodies)
    func otherBody(bytes: [UInt8]) throws {
        #expect(MessageBodyParser.parse(bytes) == nil)
        // Through the Codable API such a body is JSONDecoder's alone: the same value, or a 400.
        let decoded = try? JSONDecoder().decode(MessageCreate.self, from: Data(bytes))
        let body = try? JSONBody.decode(MessageCreate.self, from: bytes)
        #expect(body == decoded)
    }
}
