import Foundation
import SQLInterface

/// Thread objects as the wire contract shows them: `{id, channel_id, title, created_at}`.
enum ThreadJSON {
    static func object(_ server: ReferenceServer, id: String) throws -> [String: Any] {
        guard
            let row = try server.db.query(
                "SELECT id, channel_id, title, created_at FROM threads WHERE id = ?", [.text(id)]
            ).first
        else { throw Problems.notFound("Thread \(id)") }
        return [
            "id": try row.get("id", as: String.self), "channel_id": try row.get("channel_id", as: String.self),
            "title": try row.get("title", as: String.self), "created_at": try row.get("created_at", as: String.self),
        ]
    }
}
