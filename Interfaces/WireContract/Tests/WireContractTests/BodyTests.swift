import Foundation
import ShareKitCore
import ShareKitWireContract
import Testing

/// The bodies' member names, and null versus absent where the document cares.
@Suite("Bodies")
struct BodyTests {
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test("a message on a main timeline has thread_id null; web_url is left out when nil")
    func message() throws {
        let message = MessageBody(
            id: "m_1", clientMsgID: "c", threadID: nil, channelID: "ch", sender: "ana", text: "hi",
            attachments: [
                AttachmentBody(uploadID: "u", fileName: "f", contentType: "text/plain", size: 1, sha256: "ab")
            ],
            createdAt: "2026-01-01T00:00:00.000Z", webURL: nil)
        #expect(
            try Self.json(MessageList(messages: [message], next: nil))
                == #"{"messages":[{"attachments":[{"content_type":"text/plain","file_name":"f","sha256":"ab","size":1,"upload_id":"u"}],"channel_id":"ch","client_msg_id":"c","created_at":"2026-01-01T00:00:00.000Z","id":"m_1","sender":"ana","text":"hi","thread_id":null}],"next":null}"#
        )
    }

    @Test("request bodies decode with their snake_case names; text and attachments may be null")
    func requests() throws {
        let body = try JSONDecoder().decode(
            MessageCreate.self, from: Data(#"{"client_msg_id":"c","text":null,"attachments":["u"]}"#.utf8))
        #expect(body == MessageCreate(clientMsgID: "c", text: nil, attachments: ["u"]))
        let thread = try JSONDecoder().decode(
            ThreadCreate.self, from: Data(#"{"title":"t","first_message":{"client_msg_id":"c"}}"#.utf8))
        #expect(thread.firstMessage.clientMsgID == "c")
        let patch = try JSONDecoder().decode(SettingsPatch.self, from: Data(#"{"notify":{"preview_mode":null}}"#.utf8))
        #expect(patch.notify?.previewMode == nil)
    }

    @Test("an event keeps its type's members as JSON values, and its own three members win")
    func event() throws {
        let event = try JSONDecoder().decode(
            EventBody.self,
            from: Data(#"{"id":"4","type":"access.changed","created_at":"x","target_ids":["t1"]}"#.utf8))
        #expect(event.fields == ["target_ids": .array([.string("t1")])])
        #expect(try Self.json(event) == #"{"created_at":"x","id":"4","target_ids":["t1"],"type":"access.changed"}"#)
        let clash = EventBody(id: "1", type: "push", createdAt: "y", fields: ["id": "9"])
        #expect(try Self.json(clash) == #"{"created_at":"y","id":"1","type":"push"}"#)
    }

    @Test("a preview: thread_title null, excerpt left out when absent")
    func preview() throws {
        let preview = PushPreviewBody(
            mode: "names", senderName: "ana", threadTitle: nil, channelName: "c", excerpt: nil,
            webURL: "/web/messages/m")
        #expect(
            try Self.json(preview)
                == #"{"channel_name":"c","mode":"names","sender_name":"ana","thread_title":null,"web_url":"/web/messages/m"}"#
        )
    }

    @Test("audit records write null session and family ids")
    func audit() throws {
        let list = AuditList(items: [AuditRecord(kind: "k", sessionID: nil, familyID: "f", at: "t")])
        #expect(try Self.json(list) == #"{"items":[{"at":"t","family_id":"f","kind":"k","session_id":null}]}"#)
    }

    @Test("tokens, limits and problems use the document's names")
    func names() throws {
        let pair = TokenPair(sessionID: "s", accessToken: "a", refreshToken: "r", expiresIn: 1, refreshExpiresIn: 2)
        #expect(
            try Self.json(pair)
                == #"{"access_token":"a","expires_in":1,"refresh_expires_in":2,"refresh_token":"r","session_id":"s","token_type":"DPoP"}"#
        )
        let problem = ProblemBody(title: "T", status: 403, code: .writeForbidden, detail: nil)
        #expect(try Self.json(problem) == #"{"code":"write_forbidden","status":403,"title":"T","type":"about:blank"}"#)
    }
}
