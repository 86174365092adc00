import Foundation
import HTTPServerInterface
import HTTPTypes
import SQLInterface
import ShareCore

/// createMessage, createChannelMessage and createThread (docs/protocol.md,
/// "Messages and idempotency").
///
/// Each request runs in one transaction: the target's access, the
/// idempotency record, the attachment checks and the inserts. A repeated
/// `client_msg_id` with the same body is answered `200` with the original
/// message and `Idempotent-Replayed: true` before the write permission is
/// looked at, because the message already exists: a client whose first
/// answer was lost learns that it was delivered even if its permission was
/// taken away since.
enum MessageRoutes {
    struct CreateThreadBody: Decodable {
        let title: String
        let firstMessage: MessageDraft.Body

        enum CodingKeys: String, CodingKey {
            case title
            case firstMessage = "first_message"
        }
    }

    /// Longest thread title, in Unicode scalars.
    static let maxTitleLength = 256

    static func createThreadMessage(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        let session = try Authenticator.authenticate(server, context)
        let draft = try MessageDraft(try JSONBody.decode(MessageDraft.Body.self, from: context.body))
        return try server.db.transaction {
            let thread = try Access.thread(server, id: context.parameter("id"), username: session.username)
            let key = IdempotencyKey(
                username: session.username, clientMsgID: draft.clientMsgID,
                requestHash: try draft.requestHash(
                    server, operation: "createMessage", targetKind: "thread", targetID: thread.id))
            return try post(server, draft, key: key, sender: session.username, canWrite: thread.channel.canWrite) {
                id in
                try draft.insert(
                    server, id: id, sender: session.username, channelID: thread.channel.id, threadID: thread.id)
            }
        }
    }

    static func createChannelMessage(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        let session = try Authenticator.authenticate(server, context)
        let draft = try MessageDraft(try JSONBody.decode(MessageDraft.Body.self, from: context.body))
        return try server.db.transaction {
            let channel = try Access.channel(server, id: context.parameter("id"), username: session.username)
            let key = IdempotencyKey(
                username: session.username, clientMsgID: draft.clientMsgID,
                requestHash: try draft.requestHash(
                    server, operation: "createMessage", targetKind: "channel", targetID: channel.id))
            return try post(server, draft, key: key, sender: session.username, canWrite: channel.canWrite) { id in
                try draft.insert(server, id: id, sender: session.username, channelID: channel.id, threadID: nil)
            }
        }
    }

    static func createThread(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        let session = try Authenticator.authenticate(server, context)
        let body = try JSONBody.decode(CreateThreadBody.self, from: context.body)
        let title = body.title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty, title.unicodeScalars.count <= maxTitleLength else {
            throw Problems.badRequest("title must be 1 to \(maxTitleLength) characters.", code: "invalid_title")
        }
        let draft = try MessageDraft(body.firstMessage, member: "first_message")
        return try server.db.transaction {
            let channel = try Access.channel(server, id: context.parameter("id"), username: session.username)
            let key = IdempotencyKey(
                username: session.username, clientMsgID: draft.clientMsgID,
                requestHash: try draft.requestHash(
                    server, operation: "createThread", targetKind: "channel", targetID: channel.id, title: title))
            if let stored = try key.existing(server) {
                return try answer(server, stored, status: 200, headers: IdempotencyKey.replayHeader, withThread: true)
            }
            guard channel.kind == "forum" else {
                throw Problems.unprocessable(
                    "not_a_forum", "Channel \(channel.id) is a chat channel; threads are created in forum channels.")
            }
            guard channel.canWrite else { throw Problems.writeForbidden }
            try draft.checkAttachments(server, username: session.username)
            let threadID = server.ids.id("t")
            let messageID = server.ids.id("m")
            if let earlier = try key.claim(server, messageID: messageID, threadID: threadID) {
                return try answer(server, earlier, status: 200, headers: IdempotencyKey.replayHeader, withThread: true)
            }
            try server.db.execute(
                "INSERT INTO threads (id, channel_id, title, title_folded, created_at) VALUES (?, ?, ?, ?, ?)",
                [
                    .text(threadID), .text(channel.id), .text(title), .text(server.fold(title)),
                    .text(RFC3339.string(server.clock(), precision: .milliseconds)),
                ])
            try draft.insert(server, id: messageID, sender: session.username, channelID: channel.id, threadID: threadID)
            return try answer(
                server, IdempotencyKey.Stored(messageID: messageID, threadID: threadID), status: 201, headers: [:],
                withThread: true)
        }
    }

    /// The part createMessage and createChannelMessage share, inside their
    /// transaction once the target is known to be readable: replay or
    /// conflict, else check permission and attachments, claim the key and insert.
    private static func post(
        _ server: ReferenceServer, _ draft: MessageDraft, key: IdempotencyKey, sender: String, canWrite: Bool,
        insert: (String) throws -> Void
    ) throws -> HTTPResponse {
        if let stored = try key.existing(server) {
            return try answer(server, stored, status: 200, headers: IdempotencyKey.replayHeader, withThread: false)
        }
        guard canWrite else { throw Problems.writeForbidden }
        try draft.checkAttachments(server, username: sender)
        let stored = IdempotencyKey.Stored(messageID: server.ids.id("m"), threadID: nil)
        if let earlier = try key.claim(server, messageID: stored.messageID, threadID: nil) {
            return try answer(server, earlier, status: 200, headers: IdempotencyKey.replayHeader, withThread: false)
        }
        try insert(stored.messageID)
        return try answer(server, stored, status: 201, headers: [:], withThread: false)
    }

    /// `{"message": …}`, with `"thread": …` for createThread.
    private static func answer(
        _ server: ReferenceServer, _ stored: IdempotencyKey.Stored, status: HTTPStatus, headers: HTTPFields,
        withThread: Bool
    ) throws -> HTTPResponse {
        var body: [String: Any] = ["message": try MessageJSON.object(server, id: stored.messageID)]
        if withThread, let threadID = stored.threadID { body["thread"] = try ThreadJSON.object(server, id: threadID) }
        return JSONBody.response(status, body, headers: headers)
    }
}
