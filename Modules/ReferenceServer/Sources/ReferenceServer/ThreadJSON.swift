import SQLInterface

/// Thread objects as the wire contract shows them: `{channel_id, created_at, id, title}`.
struct ThreadJSON {
    let id: String
    let channelID: String
    let title: String
    let createdAt: String

    /// The stored thread.
    /// - Throws: `404` when it does not exist, `SQLError`.
    static func load(_ server: ReferenceServer, id: String) throws -> ThreadJSON {
        guard
            let row = try server.db.query(
                "SELECT id, channel_id, title, created_at FROM threads WHERE id = ?", [.text(id)]
            ).first
        else { throw Problems.notFound("Thread \(id)") }
        return ThreadJSON(
            id: try row.get("id"), channelID: try row.get("channel_id"), title: try row.get("title"),
            createdAt: try row.get("created_at"))
    }

    /// Writes the object, members in sorted order.
    func write(to output: inout JSONOutput) {
        output.object { json in
            json.member("channel_id", channelID)
            json.member("created_at", createdAt)
            json.member("id", id)
            json.member("title", title)
        }
    }
}
