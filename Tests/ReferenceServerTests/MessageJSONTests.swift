import Foundation
import Testing
import WireContract

@testable import ReferenceServer

/// The hand-written JSON of createMessage: its answers are the bytes
/// `JSONSerialization` made before, and its request bodies read as
/// `JSONDecoder` reads them, or not at all (then `JSONDecoder` decides).
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

    @Test(
        "a message written member by member is byte for byte what JSONSerialization makes of it",
        arguments: [true, false])
    func messageBytes(inThread: Bool) throws {
        let attachment = MessageJSON.Attachment(
            uploadID: "up_1", fileName: "a \"quoted\"/name\n.txt", contentType: "text/plain", size: 1 << 40,
            sha256: String(repeating: "ab", count: 32))
        let message = MessageJSON(
            id: "m_0192", clientMsgID: Self.awkward, threadID: inThread ? "t1" : nil, channelID: "c1", sender: "alex",
            text: Self.awkward, createdAt: "2026-12-01T10:00:00.123Z", attachments: inThread ? [attachment] : [])
        let thread = ThreadJSON(id: "t1", channelID: "c2", title: Self.awkward, createdAt: "2026-12-01T10:00:00.000Z")
        var output = JSONOutput()
        output.object { json in
            json.member("message") { message.write(to: &$0) }
            json.member("thread") { thread.write(to: &$0) }
        }
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
        #expect(output.bytes == expected, "\(String(decoding: output.bytes, as: UTF8.self))")
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
    }

    @Test("anything but a plain body is left to JSONDecoder", arguments: otherBodies)
    func otherBody(bytes: [UInt8]) throws {
        #expect(MessageBodyParser.parse(bytes) == nil)
    }
}
