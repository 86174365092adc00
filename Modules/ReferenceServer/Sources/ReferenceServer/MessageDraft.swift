import Foundation
import ShareKitCore
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitSQLInterface
import ShareKitWireContract

/// A message a client asks to create: the body of createMessage and
/// createChannelMessage, and createThread's `first_message`, checked for
/// everything that does not need the database.
struct MessageDraft {
    /// The JSON shape, the contract's `MessageCreate`, decoded strictly (a
    /// wrong type is a 400 naming the member).
    typealias Body = MessageCreate

    /// Longest `client_msg_id`, in Unicode scalars: room for a UUID or a ULID with a prefix.
    static let maxClientMsgIDLength = 64
    /// Longest `text`, in UTF-8 bytes.
    static let maxTextBytes = 65_536

    let clientMsgID: String
    let text: String
    let attachments: [String]

    /// Checks a decoded body.
    /// - Parameters:
    ///   - body: the decoded member.
    ///   - member: its name for messages (`body` or `first_message`).
    /// - Throws: `400 invalid_client_msg_id`, `422 text_too_long` or `422 empty_message`.
    init(_ body: Body, member: String = "body") throws {
        let scalars = body.clientMsgID.unicodeScalars.count
        guard scalars >= 1, scalars <= Self.maxClientMsgIDLength else {
            throw Problems.badRequest(
                "\(member).client_msg_id must be 1 to \(Self.maxClientMsgIDLength) characters.",
                code: "invalid_client_msg_id")
        }
        let text = body.text ?? ""
        guard text.utf8.count <= Self.maxTextBytes else {
            throw Problems.unprocessable(
                "text_too_long", "\(member).text is \(text.utf8.count) bytes; the limit is \(Self.maxTextBytes).")
        }
        let attachments = body.attachments ?? []
        // Text that trimming whitespace and newlines would leave empty, found
        // without trimming (which copies the text through NSString).
        let spaces = CharacterSet.whitespacesAndNewlines
        let blank = !text.unicodeScalars.contains { !spaces.contains($0) }
        guard !blank || !attachments.isEmpty else {
            throw Problems.unprocessable("empty_message", "A message needs text or at least one attachment.")
        }
        clientMsgID = body.clientMsgID
        self.text = text
        self.attachments = attachments
    }

    /// The fingerprint idempotency compares: SHA-256 (hex) of a canonical
    /// serialization of `[operation, target kind, target id, title, text,
    /// attachments...]`, each field written as `<UTF-8 length>:<bytes>` (an
    /// absent title as `-`). Length prefixes make the encoding unambiguous
    /// and independent of any JSON library, so a record stored by one server
    /// version still matches after an upgrade.
    func requestHash(
        _ server: ReferenceServer, operation: String, targetKind: String, targetID: String, title: String? = nil
    ) throws -> String {
        var canonical: [UInt8] = []
        func field(_ value: String) {
            canonical += Array("\(value.utf8.count):".utf8) + Array(value.utf8)
        }
        for value in [operation, targetKind, targetID] { field(value) }
        if let title { field(title) } else { canonical += Array("-".utf8) }
        field(text)
        canonical += Array("\(attachments.count)#".utf8)
        for id in attachments { field(id) }
        return try server.ids.hexSHA256(canonical)
    }

    /// Checks the attachments against the database (inside the posting
    /// transaction, so an upload cannot be aborted between check and insert).
    /// - Returns: the attached uploads' public fields, in the message's order.
    /// - Throws: `422 too_many_attachments` over `message_max_attachments`;
    ///   `404 not_found` for an upload that does not exist or belongs to
    ///   another user (docs/protocol.md, "Uploads": other users get 404, the same answer as
    ///   a missing one, so ids of others' uploads reveal nothing);
    ///   `422 invalid_attachment` for a repeated id or an own upload that is
    ///   not complete.
    func checkAttachments(_ server: ReferenceServer, username: String) throws -> [AttachmentBody] {
        let limit = server.settings.messageMaxAttachments
        guard attachments.count <= limit else {
            throw Problems.unprocessable(
                "too_many_attachments",
                "A message can have at most \(limit) attachments (message_max_attachments); this one has \(attachments.count)."
            )
        }
        var seen = Set<String>()
        var found: [AttachmentBody] = []
        for id in attachments {
            guard seen.insert(id).inserted else {
                throw Problems.unprocessable("invalid_attachment", "Upload \(id) is attached more than once.")
            }
            guard
                let row = try server.db.query(
                    "SELECT id, file_name, content_type, size, sha256, digest_algorithm, state FROM uploads "
                        + "WHERE id = ? AND username = ?",
                    [.text(id), .text(username)]
                ).first
            else {
                throw Problems.notFound("Upload \(id)")
            }
            guard try row.get("state", as: String.self) == "complete" else {
                throw Problems.unprocessable(
                    "invalid_attachment", "Upload \(id) is not complete; complete it first.")
            }
            found.append(try AttachmentBody(row: row))
        }
        return found
    }

    /// Stores the message and its attachments, in the caller's transaction,
    /// and finds the people it is pushed to (``PushRoutes/recipients(_:channelID:sender:)``).
    /// - Parameters:
    ///   - attachments: what ``checkAttachments(_:username:)`` returned.
    /// - Returns: the message as the wire shows it, without reading it
    ///   back, and its push recipients.
    func insert(
        _ server: ReferenceServer, id: String, sender: String, channelID: String, threadID: String?,
        attachments found: [AttachmentBody]
    ) throws -> (message: MessageBody, recipients: [String]) {
        let createdAt = RFC3339.string(server.clock(), precision: .milliseconds)
        let insert = """
            INSERT INTO messages (id, client_msg_id, sender, channel_id, thread_id, text, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """
        let values: [SQLValue] = [
            .text(id), .text(clientMsgID), .text(sender), .text(channelID), threadID.map { .text($0) } ?? .null,
            .text(text), .text(createdAt),
        ]
        let recipients: [String]
        switch server.db.dialect {
        case .postgresql:
            // One statement, one round trip: PostgreSQL runs a data-modifying
            // WITH to completion whether or not the query reads it, and the
            // query reads none of the table it writes.
            recipients = try PushRoutes.recipients(
                in: server.db.query(
                    "WITH inserted AS (\(insert) RETURNING id) \(PushRoutes.recipientsQuery)",
                    values + PushRoutes.recipientsBindings(server, channelID: channelID, sender: sender)))
        case .sqlite:
            // SQLite has no data-modifying WITH; its statements are calls, not round trips.
            try server.db.execute(insert, values)
            recipients = try PushRoutes.recipients(server, channelID: channelID, sender: sender)
        }
        for (position, upload) in attachments.enumerated() {
            try server.db.execute(
                "INSERT INTO message_attachments (message_id, position, upload_id) VALUES (?, ?, ?)",
                [.text(id), .integer(Int64(position)), .text(upload)])
        }
        let message = MessageBody(
            id: id, clientMsgID: clientMsgID, threadID: threadID, channelID: channelID, sender: sender, text: text,
            attachments: found, createdAt: createdAt, webURL: WebRoutes.messagePath(id))
        return (message, recipients)
    }
}
