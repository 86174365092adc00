import Foundation
import ShareKitCore
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitSQLInterface
import ShareKitWireContract

/// createMessage, createChannelMessage and createThread (docs/protocol.md,
/// "Messages and idempotency").
///
/// Each request runs in one transaction: its proof's `jti` record
/// (``PendingReplayRecord``), the target's access, the idempotency record,
/// the attachment checks and the inserts. A repeated
/// `client_msg_id` with the same body is answered `200` with the original
/// message and `Idempotent-Replayed: true` before the write permission is
/// looked at, because the message already exists: a client whose first
/// answer was lost learns that it was delivered even if its permission was
/// taken away since.
enum MessageRoutes {
    /// Longest thread title, in Unicode scalars.
    static let maxTitleLength = 256

    static func createThreadMessage(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        let id = context.parameter("id")
        return try createMessage(server, context, targetKind: "thread") {
            Access.threadRead(id: id, username: $0)
        } target: { rows in
            let thread = try Access.thread(id: id, rows: rows)
            return (thread.channel, thread.id)
        }
    }

    static func createChannelMessage(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        let id = context.parameter("id")
        return try createMessage(server, context, targetKind: "channel") {
            Access.channelRead(id: id, username: $0)
        } target: { rows in
            (try Access.channel(id: id, rows: rows), nil)
        }
    }

    /// createMessage and createChannelMessage.
    /// - Parameters:
    ///   - targetKind: `thread` or `channel`, for the idempotency fingerprint.
    ///   - read: the query that finds the target the caller (by username)
    ///     can read, run first in the transaction (with the `jti` record).
    ///   - target: the target in its rows: its channel, and the thread for a
    ///     thread message; a target not found throws 404.
    private static func createMessage(
        _ server: ReferenceServer, _ context: RequestContext, targetKind: String,
        read: (String) -> Access.Read,
        target: @escaping ([SQLRow]) throws -> (channel: Access.Channel, threadID: String?)
    ) throws -> HTTPResponse {
        try PendingReplayRecord.settled(server) { replay in
            let session = try Authenticator.authenticate(server, context, replay: replay)
            let draft = try MessageDraft(try JSONBody.decode(MessageDraft.Body.self, from: context.body))
            return try replay.transaction(server, reading: read(session.username)) { rows in
                let (channel, threadID) = try target(rows)
                let key = IdempotencyKey(
                    username: session.username, clientMsgID: draft.clientMsgID,
                    requestHash: try draft.requestHash(
                        server, operation: "createMessage", targetKind: targetKind, targetID: threadID ?? channel.id))
                return try post(server, draft, key: key, sender: session.username, canWrite: channel.canWrite) {
                    id, attachments in
                    try draft.insert(
                        server, id: id, sender: session.username, channelID: channel.id, threadID: threadID,
                        attachments: attachments)
                }
            }
        }
    }

    static func createThread(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        try PendingReplayRecord.settled(server) { replay in try createThread(server, context, replay: replay) }
    }

    private static func createThread(
        _ server: ReferenceServer, _ context: RequestContext, replay: PendingReplayRecord
    ) throws -> HTTPResponse {
        let session = try Authenticator.authenticate(server, context, replay: replay)
        let body = try JSONBody.decode(ThreadCreate.self, from: context.body)
        let title = body.title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty, title.unicodeScalars.count <= maxTitleLength else {
            throw Problems.badRequest("title must be 1 to \(maxTitleLength) characters.", code: "invalid_title")
        }
        let draft = try MessageDraft(body.firstMessage, member: "first_message")
        return try replay.transaction(server) {
            let channel = try Access.channel(server, id: context.parameter("id"), username: session.username)
            let key = IdempotencyKey(
                username: session.username, clientMsgID: draft.clientMsgID,
                requestHash: try draft.requestHash(
                    server, operation: "createThread", targetKind: "channel", targetID: channel.id, title: title))
            if let stored = try key.existing(server) {
                return try replayAnswer(server, stored, withThread: true)
            }
            guard channel.kind == "forum" else {
                throw Problems.unprocessable(
                    "not_a_forum", "Channel \(channel.id) is a chat channel; threads are created in forum channels.")
            }
            guard channel.canWrite else { throw Problems.writeForbidden }
            let attachments = try draft.checkAttachments(server, username: session.username)
            let threadID = server.ids.id("t")
            let messageID = server.ids.id("m")
            if let earlier = try key.claim(server, messageID: messageID, threadID: threadID) {
                return try replayAnswer(server, earlier, withThread: true)
            }
            let thread = ThreadBody(
                id: threadID, channelID: channel.id, title: title,
                createdAt: RFC3339.string(server.clock(), precision: .milliseconds))
            try server.db.execute(
                "INSERT INTO threads (id, channel_id, title, title_folded, created_at) VALUES (?, ?, ?, ?, ?)",
                [
                    .text(threadID), .text(channel.id), .text(title), .text(server.fold(title)),
                    .text(thread.createdAt),
                ])
            let (message, recipients) = try draft.insert(
                server, id: messageID, sender: session.username, channelID: channel.id, threadID: threadID,
                attachments: attachments)
            try PushRoutes.pushNewMessage(server, message, recipients: recipients)
            return answer(message, thread: thread, status: 201, headers: [:])
        }
    }

    /// The part createMessage and createChannelMessage share, inside their
    /// transaction once the target is known to be readable: claim the key
    /// (a replay or a conflict ends here), check permission and attachments, insert.
    private static func post(
        _ server: ReferenceServer, _ draft: MessageDraft, key: IdempotencyKey, sender: String, canWrite: Bool,
        insert: (String, [AttachmentBody]) throws -> (message: MessageBody, recipients: [String])
    ) throws -> HTTPResponse {
        // The claim comes first: a key already used is answered (replay or
        // conflict) before the write permission is looked at, and a new
        // key's claim is rolled back with the transaction when a check
        // below refuses the message. One statement for a new key.
        let messageID = server.ids.id("m")
        if let earlier = try key.claim(server, messageID: messageID, threadID: nil) {
            return try replayAnswer(server, earlier, withThread: false)
        }
        guard canWrite else { throw Problems.writeForbidden }
        let attachments = try draft.checkAttachments(server, username: sender)
        let (message, recipients) = try insert(messageID, attachments)
        try PushRoutes.pushNewMessage(server, message, recipients: recipients)
        return answer(message, thread: nil, status: 201, headers: [:])
    }

    /// The answer to a repeated request: the stored message (and thread), `200`, `Idempotent-Replayed: true`.
    private static func replayAnswer(_ server: ReferenceServer, _ stored: IdempotencyKey.Stored, withThread: Bool)
        throws
        -> HTTPResponse
    {
        let message = try MessageBody.load(server, id: stored.messageID)
        let thread = try withThread ? stored.threadID.map { try ThreadBody.load(server, id: $0) } : nil
        return answer(message, thread: thread, status: 200, headers: IdempotencyKey.replayHeader)
    }

    /// `{"message": …}` (``MessageEnvelope``), with `"thread": …` for createThread (``ThreadCreated``).
    private static func answer(_ message: MessageBody, thread: ThreadBody?, status: HTTPStatus, headers: HTTPFields)
        -> HTTPResponse
    {
        if let thread {
            return JSONBody.response(status, ThreadCreated(thread: thread, message: message), headers: headers)
        }
        return JSONBody.response(status, MessageEnvelope(message: message), headers: headers)
    }
}
