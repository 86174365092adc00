import Foundation
import ShareKitCore

/// The stored form of an event: the `body` column holds the type's own
/// members plus `type`, as JSON with sorted keys. The server
/// (``ReferenceServer/emit(_:to:fields:)``) and the admin commands
/// (`ReferenceServerAdmin.appendEvent`) write it the same way; listEvents
/// reads it back into the contract's `EventBody`.
enum ServerEvents {
    /// The `body` text of an event.
    /// - Parameters:
    ///   - type: the event's type, e.g. `session.revoked`.
    ///   - fields: the type's own members (`session_id`, `target_ids`, `payload`).
    /// - Returns: the JSON text, keys sorted, `/` escaped as the rows written before.
    /// - Throws: what `JSONEncoder` throws (not for these values).
    static func bodyText(type: String, fields: [String: JSONValue]) throws -> String {
        var body = fields
        body["type"] = .string(type)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(JSONValue.object(body)), as: UTF8.self)
    }
}
