import Foundation
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitSQLInterface
import ShareKitWireContract

/// Read-only routes: health, instance limits, spaces, thread search, message lists.
enum CatalogRoutes {
    static func health(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        _ = try server.db.query("SELECT 1")
        return JSONBody.response(200, Health())
    }

    static func instanceLimits(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        _ = try Authenticator.authenticate(server, context)
        let s = server.settings
        return JSONBody.response(
            200,
            InstanceLimits(
                fileMaxUploadBytes: s.fileMaxUploadBytes, messageMaxAttachments: s.messageMaxAttachments,
                uploadPartSize: s.uploadPartSize, recentTargets: s.recentTargets,
                acceptedContentTypes: s.acceptedContentTypes, uploadDigestAlgorithms: s.uploadDigestAlgorithms))
    }

    static func listSpaces(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        let session = try Authenticator.authenticate(server, context)
        let order = ["s.name", "s.id", "c.name", "c.id"].map(server.db.dialect.byteOrder).joined(separator: ", ")
        let rows = try server.db.query(
            """
            SELECT s.id AS space_id, s.name AS space_name, c.id, c.name, c.kind, a.can_write
            FROM channel_access a JOIN channels c ON c.id = a.channel_id JOIN spaces s ON s.id = c.space_id
            WHERE a.username = ? AND a.can_read = 1 ORDER BY \(order)
            """, [.text(session.username)])
        var spaces: [SpaceBody] = []
        var channels: [ChannelBody] = []
        var currentSpace: (id: String, name: String)?
        func flush() {
            if let space = currentSpace { spaces.append(SpaceBody(id: space.id, name: space.name, channels: channels)) }
        }
        for row in rows {
            let spaceID = try row.get("space_id", as: String.self)
            if currentSpace?.id != spaceID {
                flush()
                currentSpace = (spaceID, try row.get("space_name"))
                channels = []
            }
            channels.append(
                ChannelBody(
                    id: try row.get("id"), name: try row.get("name"), kind: try row.get("kind"),
                    canWrite: try row.get("can_write", as: Bool.self)))
        }
        flush()
        return JSONBody.response(200, spaces)
    }

    static func searchThreadTitles(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        let session = try Authenticator.authenticate(server, context)
        let query = server.fold(context.query("q") ?? "").trimmingCharacters(in: .whitespaces)
        var limit = 20
        if let text = context.query("limit") {
            guard let value = Int(text), (1...100).contains(value) else {
                throw Problems.badRequest("limit must be a whole number from 1 to 100.")
            }
            limit = value
        }
        guard RequestContext.canMatchStored(query) else { return JSONBody.response(200, [ThreadSearchResult]()) }
        let dialect = server.db.dialect
        let rows = try server.db.query(
            """
            SELECT t.id, t.title, t.title_folded, t.channel_id, c.name AS channel_name, s.name AS space_name, a.can_write
            FROM threads t JOIN channels c ON c.id = t.channel_id JOIN spaces s ON s.id = c.space_id
            JOIN channel_access a ON a.channel_id = c.id AND a.username = ? AND a.can_read = 1
            WHERE \(dialect.containsCondition("t.title_folded"))
            ORDER BY \(dialect.byteOrder("t.title_folded")), \(dialect.byteOrder("t.id"))
            """, [.text(session.username), .text(query)])
        // Prefix matches first, then matches inside the title; each group alphabetical.
        let ranked = try rows.map { row -> (Bool, ThreadSearchResult) in
            let folded = try row.get("title_folded", as: String.self)
            return (
                folded.hasPrefix(query),
                ThreadSearchResult(
                    id: try row.get("id"), title: try row.get("title"), channelID: try row.get("channel_id"),
                    channelName: try row.get("channel_name"), spaceName: try row.get("space_name"),
                    canWrite: try row.get("can_write", as: Bool.self))
            )
        }
        let ordered = ranked.filter { $0.0 }.map(\.1) + ranked.filter { !$0.0 }.map(\.1)
        return JSONBody.response(200, Array(ordered.prefix(limit)))
    }

    static func listThreadMessages(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        let session = try Authenticator.authenticate(server, context)
        let thread = try Access.thread(server, id: context.parameter("id"), username: session.username)
        return try listMessages(server, context, whereSQL: "thread_id = ?", binding: .text(thread.id))
    }

    static func listChannelMessages(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        let session = try Authenticator.authenticate(server, context)
        let channel = try Access.channel(server, id: context.parameter("id"), username: session.username)
        return try listMessages(
            server, context, whereSQL: "channel_id = ? AND thread_id IS NULL", binding: .text(channel.id))
    }

    private static func listMessages(
        _ server: ReferenceServer, _ context: RequestContext, whereSQL: String, binding: SQLValue
    ) throws -> HTTPResponse {
        var after: Int64 = 0
        if let cursor = context.query("after") {
            // The cursor format of listEvents (decimal digits only), so `+5`
            // or ` 5` are refused as the OpenAPI document's pattern says.
            guard let value = EventRoutes.cursorValue(cursor) else {
                throw Problems.badRequest("after must be a cursor from next.")
            }
            after = value
        }
        let rows = try server.db.query(
            "SELECT seq, id FROM messages WHERE \(whereSQL) AND seq > ? ORDER BY seq LIMIT ?",
            [binding, .integer(after), .integer(Int64(pageMessages + 1))])
        // Each message is loaded and measured only when the page still has
        // room, so building a page never holds more than the page and one
        // message, however large the messages are.
        var messages: [MessageBody] = []
        var size = 0
        var lastSeq: Int64?
        var more = rows.count > pageMessages
        for row in rows.prefix(pageMessages) {
            let message = try MessageBody.load(server, id: try row.get("id", as: String.self))
            let length = try JSONBody.encode(message).count
            guard messages.isEmpty || size + 1 + length <= pageBytes - pageFrame else {
                more = true
                break
            }
            size += (messages.isEmpty ? 0 : 1) + length
            messages.append(message)
            lastSeq = try row.get("seq", as: Int64.self)
        }
        return JSONBody.response(200, MessageList(messages: messages, next: more ? lastSeq.map(String.init) : nil))
    }

    /// The most messages a page of listMessages holds.
    static let pageMessages = 200
    /// The largest page of listMessages in bytes: a page ends before the
    /// message that would pass it (its `next` leads on), unless that message
    /// is the first. A message is at most about 400 KiB (64 KiB of text
    /// that JSON writes six bytes a character), so a page of 200 of them
    /// would be 78 MiB, which a client could ask for on many connections
    /// and never read; and clients refuse answers over 8 MiB.
    static let pageBytes = 1 << 20
    /// Room for what surrounds the messages: `{"messages":[`, `],"next":`
    /// and a cursor of up to 18 digits in quotes, `}`.
    static let pageFrame = 64
}

extension MessageBody {
    /// The stored message, with its attachments in order and its web link.
    /// - Throws: `404` when it does not exist, `SQLError`.
    static func load(_ server: ReferenceServer, id: String) throws -> MessageBody {
        guard
            let row = try server.db.query(
                "SELECT id, client_msg_id, thread_id, channel_id, sender, text, created_at FROM messages WHERE id = ?",
                [.text(id)]
            ).first
        else { throw Problems.notFound("Message \(id)") }
        let attachments = try server.db.query(
            """
            SELECT u.id, u.file_name, u.content_type, u.size, u.sha256, u.digest_algorithm FROM message_attachments a
            JOIN uploads u ON u.id = a.upload_id WHERE a.message_id = ? ORDER BY a.position
            """, [.text(id)]
        ).map(AttachmentBody.init(row:))
        return MessageBody(
            id: try row.get("id"), clientMsgID: try row.get("client_msg_id"), threadID: try row.get("thread_id"),
            channelID: try row.get("channel_id"), sender: try row.get("sender"), text: try row.get("text"),
            attachments: attachments, createdAt: try row.get("created_at"), webURL: WebRoutes.messagePath(id))
    }
}

extension AttachmentBody {
    /// Reads `id, file_name, content_type, size, sha256, digest_algorithm` of an upload.
    init(row: SQLRow) throws {
        let algorithm = try row.get("digest_algorithm", as: String.self)
        self.init(
            uploadID: try row.get("id"), fileName: try row.get("file_name"), contentType: try row.get("content_type"),
            size: try row.get("size"), sha256: try row.get("sha256"),
            digestAlgorithm: algorithm == UploadDigestAlgorithm.sha256 ? nil : algorithm)
    }
}

extension ThreadBody {
    /// The stored thread.
    /// - Throws: `404` when it does not exist, `SQLError`.
    static func load(_ server: ReferenceServer, id: String) throws -> ThreadBody {
        guard
            let row = try server.db.query(
                "SELECT id, channel_id, title, created_at FROM threads WHERE id = ?", [.text(id)]
            ).first
        else { throw Problems.notFound("Thread \(id)") }
        return ThreadBody(
            id: try row.get("id"), channelID: try row.get("channel_id"), title: try row.get("title"),
            createdAt: try row.get("created_at"))
    }
}

/// Who may see and write where. A target the person cannot read does not
/// exist for them (404); one they can read but not write is 403 `write_forbidden`.
enum Access {
    struct Channel {
        let id: String
        let kind: String
        let canWrite: Bool
    }

    struct Thread {
        let id: String
        let channel: Channel
    }

    /// A query and its values, run later or carried by another statement
    /// (``PendingReplayRecord/transaction(_:reading:_:)``).
    struct Read {
        let sql: String
        let bindings: [SQLValue]
    }

    static func channel(_ server: ReferenceServer, id: String, username: String) throws -> Channel {
        let read = channelRead(id: id, username: username)
        return try channel(id: id, rows: server.db.query(read.sql, read.bindings))
    }

    /// The query of ``channel(_:id:username:)``.
    static func channelRead(id: String, username: String) -> Read {
        Read(
            sql: """
                SELECT c.id, c.kind, a.can_write FROM channels c
                JOIN channel_access a ON a.channel_id = c.id AND a.username = ? AND a.can_read = 1 WHERE c.id = ?
                """, bindings: [.text(username), .text(id)])
    }

    /// The channel in the rows of ``channelRead(id:username:)``.
    static func channel(id: String, rows: [SQLRow]) throws -> Channel {
        guard let row = rows.first else { throw Problems.notFound("Channel \(id)") }
        return Channel(id: try row.get("id"), kind: try row.get("kind"), canWrite: try row.get("can_write"))
    }

    static func thread(_ server: ReferenceServer, id: String, username: String) throws -> Thread {
        let read = threadRead(id: id, username: username)
        return try thread(id: id, rows: server.db.query(read.sql, read.bindings))
    }

    /// The query of ``thread(_:id:username:)``. One query: a thread whose
    /// channel the person cannot read is as missing as one that does not exist.
    static func threadRead(id: String, username: String) -> Read {
        Read(
            sql: """
                SELECT c.id, c.kind, a.can_write FROM threads t JOIN channels c ON c.id = t.channel_id
                JOIN channel_access a ON a.channel_id = c.id AND a.username = ? AND a.can_read = 1 WHERE t.id = ?
                """, bindings: [.text(username), .text(id)])
    }

    /// The thread in the rows of ``threadRead(id:username:)``.
    static func thread(id: String, rows: [SQLRow]) throws -> Thread {
        guard let row = rows.first else { throw Problems.notFound("Thread \(id)") }
        return Thread(
            id: id,
            channel: Channel(id: try row.get("id"), kind: try row.get("kind"), canWrite: try row.get("can_write")))
    }
}
