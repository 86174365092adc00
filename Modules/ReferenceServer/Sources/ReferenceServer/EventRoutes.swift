import Foundation
import ShareKitCore
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitSQLInterface
import ShareKitWireContract

/// The event long poll and the settings (docs/protocol.md, "Events feed" and
/// "Settings").
///
/// Events are rows of the `events` table, one feed per user, ordered by the
/// table's `seq`. The cursor a client gets back is that `seq` in decimal, so
/// it survives restarts and is the same for every process on the database.
enum EventRoutes {
    /// The most events one answer carries; a client that gets this many asks
    /// again at once with the new cursor.
    static let pageSize = 100
    /// The longest `wait` honoured: longer asks are shortened rather than
    /// refused, so a client's own setting never breaks the poll.
    static let maxWaitSeconds = 30
    /// How often a waiting poll looks at the database even without a signal:
    /// `share-server admin` writes events from another process, which cannot
    /// wake this one's ``EventSignal``.
    static let recheckInterval: TimeInterval = 0.25
    /// The values of `notify.preview_mode`.
    static let previewModes: Set<String> = ["full", "names", "none"]
    /// The mode of a user who never chose one: the text is shown, as on
    /// any messenger, until the person opts out.
    static let defaultPreviewMode = "full"

    // MARK: listEvents

    /// `GET /events?after=<cursor>&wait=<seconds>`: the caller's events after
    /// the cursor, oldest first.
    ///
    /// Without `after` the feed starts now: the answer's cursor is the
    /// user's latest event and no history is replayed (a new client has
    /// nothing to catch up with), but events written while the request
    /// waits are returned. `after=0` replays the whole feed.
    static func list(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        let session = try Authenticator.authenticate(server, context)
        let waitSeconds = try parseWait(context.query("wait"))
        var cursor: Int64
        if let text = context.query("after") {
            cursor = try parseCursor(text)
        } else {
            cursor =
                try server.db.query(
                    "SELECT COALESCE(MAX(seq), 0) AS seq FROM events WHERE username = ?", [.text(session.username)]
                ).first?.get("seq", as: Int64.self) ?? 0
        }
        // Real time, not `server.clock`: tests move the server's clock, and a
        // moved clock must not turn a 30 s wait into none or into forever.
        let deadline = Date().addingTimeInterval(TimeInterval(waitSeconds))
        while true {
            // The generation is taken before the query: an event written
            // between the query and the wait moves it, so the wait returns
            // at once instead of missing the event.
            let seen = server.events.current
            let (events, last) = try fetch(server, username: session.username, after: cursor)
            if let last {
                cursor = last
                return JSONBody.response(200, EventList(events: events, cursor: String(cursor)))
            }
            let now = Date()
            if now >= deadline || server.events.isStopping {
                return JSONBody.response(200, EventList(events: [], cursor: String(cursor)))
            }
            _ = server.events.wait(after: seen, until: min(deadline, now.addingTimeInterval(recheckInterval)))
        }
    }

    /// A cursor: the decimal `seq` of the last event seen. Only digits, so
    /// `+5`, ` 5` or `5.0` are refused rather than read as 5.
    static func parseCursor(_ text: String) throws -> Int64 {
        guard let value = cursorValue(text) else {
            throw Problems.badRequest("after must be a cursor from an earlier listEvents answer (a decimal number).")
        }
        return value
    }

    /// The value of a cursor of 1 to 18 decimal digits (the document's
    /// `Cursor` pattern), nil for anything else.
    static func cursorValue(_ text: String) -> Int64? {
        guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return nil
        }
        return Int64(text)
    }

    /// `wait` in whole seconds, 0 when absent; more than ``maxWaitSeconds`` is shortened to it.
    static func parseWait(_ text: String?) throws -> Int {
        guard let text else { return 0 }
        guard !text.isEmpty, text.utf8.count <= 9, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let value = Int(text)
        else {
            throw Problems.badRequest("wait must be a whole number of seconds (at most \(maxWaitSeconds) are used).")
        }
        return min(value, maxWaitSeconds)
    }

    /// One page of a user's events after `cursor`, as the wire shows them,
    /// and the `seq` of the last one (nil when there are none).
    static func fetch(_ server: ReferenceServer, username: String, after cursor: Int64) throws -> (
        [EventBody], Int64?
    ) {
        let rows = try server.db.query(
            "SELECT seq, type, body, created_at FROM events WHERE username = ? AND seq > ? ORDER BY seq LIMIT ?",
            [.text(username), .integer(cursor), .integer(Int64(pageSize))])
        var last: Int64?
        let events = try rows.map { row -> EventBody in
            let seq = try row.get("seq", as: Int64.self)
            last = seq
            // The body holds the type-specific members (target_ids,
            // session_id, payload); id, type and created_at come from the
            // columns so a body can never contradict them.
            let body = try row.get("body", as: String.self)
            let fields: [String: JSONValue]
            if case .object(let members)? = try? JSONDecoder().decode(JSONValue.self, from: Data(body.utf8)) {
                fields = members
            } else {
                fields = [:]
            }
            return EventBody(
                id: String(seq), type: try row.get("type"), createdAt: try row.get("created_at"), fields: fields)
        }
        return (events, last)
    }

    // MARK: Settings

    /// `GET /settings`.
    static func getSettings(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        let session = try Authenticator.authenticate(server, context)
        return JSONBody.response(200, try settings(server.db, username: session.username))
    }

    /// `PATCH /settings`: stores the members given and, when something
    /// changed, emits `settings.changed` so the user's other clients fetch
    /// the settings again (the event carries no values: getSettings is the
    /// one place they are read from).
    static func updateSettings(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        let session = try Authenticator.authenticate(server, context)
        let body = try JSONBody.decode(SettingsPatch.self, from: context.body)
        if let mode = body.notify?.previewMode, !previewModes.contains(mode) {
            throw Problems.badRequest("notify.preview_mode must be \"full\", \"names\" or \"none\".")
        }
        let stored = try server.db.transaction { () throws -> SettingsBody in
            // Two changes of one user's settings, on any process, merge one after the other.
            try server.lockKeys(["settings\n" + session.username])
            let current = try settings(server.db, username: session.username)
            let wanted = SettingsBody(
                previewMode: body.notify?.previewMode ?? current.notify.previewMode,
                enabled: body.notify?.enabled ?? current.notify.enabled)
            guard wanted != current else { return current }
            try server.db.execute(
                """
                INSERT INTO settings (username, preview_mode, notify_enabled) VALUES (?, ?, ?)
                ON CONFLICT(username) DO UPDATE SET preview_mode = excluded.preview_mode,
                    notify_enabled = excluded.notify_enabled
                """,
                [
                    .text(session.username), .text(wanted.notify.previewMode),
                    .integer(wanted.notify.enabled ? 1 : 0),
                ])
            try server.emit("settings.changed", to: session.username, fields: [:])
            return wanted
        }
        return JSONBody.response(200, stored)
    }

    /// A user's `notify.preview_mode`, the default when never set.
    static func previewMode(_ db: any SQLDatabase, username: String) throws -> String {
        try settings(db, username: username).notify.previewMode
    }

    /// A user's settings, the defaults for what was never set.
    static func settings(_ db: any SQLDatabase, username: String) throws -> SettingsBody {
        guard
            let row = try db.query(
                "SELECT preview_mode, notify_enabled FROM settings WHERE username = ?", [.text(username)]
            ).first
        else { return SettingsBody(previewMode: defaultPreviewMode) }
        return SettingsBody(
            previewMode: try row.get("preview_mode", as: String.self),
            enabled: try row.get("notify_enabled", as: Int64.self) != 0)
    }
}
