public import Foundation
import ShareKitCore
public import ShareKitSQLInterface

/// Administrative changes for tests and operators (docs/protocol.md, "The
/// reference server": `share-server admin revoke-write` and `admin revoke-session`).
///
/// They work on the database alone, without a running server: the command
/// line runs them from another process against the same database file, and
/// a running server picks their events up because its long polls re-check
/// the database (``EventSignal`` cannot be woken across processes). Each
/// operation is one transaction, so a change and its event are written
/// together or not at all.
///
/// ```swift
/// let db = try SQLiteDatabase(path: path)
/// let outcome = try ReferenceServerAdmin.revokeWrite(database: db, username: "sam", channelID: "c1")
/// print(outcome)  // sam can no longer write to c1; access.changed event 7 names c1, t1, t2
/// ```
public enum ReferenceServerAdmin {
    /// Brings the database's schema up to date, as ``ReferenceServer/init(database:crypto:settings:uploadsDirectory:clock:)``
    /// does. The operations below call it themselves; it is public for a
    /// command line that wants to check a database before anything else.
    /// - Parameter database: the server's database.
    /// - Throws: `SQLError`, e.g. ``ShareKitSQLInterface/SQLError/schemaTooNew(version:known:)``
    ///   for a database written by a newer server.
    public static func migrate(database: any SQLDatabase) throws {
        _ = try database.migrate(ServerSchema.migrations(for: database.dialect))
    }

    /// Takes a user's write permission on a channel away and tells that
    /// user's clients (`access.changed` with the channel and every thread in
    /// it as `target_ids`). Reading stays allowed; createMessage and
    /// createThread there answer `403 write_forbidden` from now on.
    ///
    /// Idempotent: when the user already cannot write there, nothing changes
    /// and no event is written.
    /// - Parameters:
    ///   - database: the server's database.
    ///   - username: the user.
    ///   - channelID: the channel.
    ///   - now: the time written into the event (tests fix it).
    /// - Returns: what was done, printable for the command line.
    /// - Throws: ``ReferenceServerError`` when the user, the channel or
    ///   the user's access to the channel does not exist; `SQLError` when
    ///   the database fails.
    public static func revokeWrite(
        database: any SQLDatabase, username: String, channelID: String, now: Date = Date()
    ) throws -> RevokeWriteOutcome {
        try migrate(database: database)
        return try database.transaction {
            guard try !database.query("SELECT 1 FROM users WHERE username = ?", [.text(username)]).isEmpty else {
                throw ReferenceServerError.unknownUser(username)
            }
            guard try !database.query("SELECT 1 FROM channels WHERE id = ?", [.text(channelID)]).isEmpty else {
                throw ReferenceServerError.unknownChannel(channelID)
            }
            guard
                let access = try database.query(
                    "SELECT can_write FROM channel_access WHERE channel_id = ? AND username = ?",
                    [.text(channelID), .text(username)]
                ).first
            else { throw ReferenceServerError.noAccess(username: username, channelID: channelID) }
            let threads = try database.query(
                "SELECT id FROM threads WHERE channel_id = ? ORDER BY \(database.dialect.byteOrder("id"))",
                [.text(channelID)]
            ).map { try $0.get("id", as: String.self) }
            let targets = [channelID] + threads
            guard try access.get("can_write", as: Bool.self) else {
                return RevokeWriteOutcome(
                    username: username, channelID: channelID, targetIDs: targets, changed: false, eventID: nil)
            }
            try database.execute(
                "UPDATE channel_access SET can_write = 0 WHERE channel_id = ? AND username = ?",
                [.text(channelID), .text(username)])
            let seq = try appendEvent(
                database, type: "access.changed", to: username,
                fields: ["target_ids": .array(targets.map(JSONValue.string))], at: now)
            return RevokeWriteOutcome(
                username: username, channelID: channelID, targetIDs: targets, changed: true, eventID: String(seq))
        }
    }

    /// Revokes a session and, for an app session, its extension sessions,
    /// as a refresh-token reuse does (`session.revoked` for each one), and
    /// disables their push registrations so their preview tokens stop too.
    ///
    /// Idempotent: sessions already revoked are left as they are and get no
    /// second event.
    /// - Parameters:
    ///   - database: the server's database.
    ///   - sessionID: the session (`session_id` of login).
    ///   - now: the revocation time (tests fix it).
    /// - Returns: what was done, printable for the command line.
    /// - Throws: ``ReferenceServerError/unknownSession(_:)``; `SQLError`
    ///   when the database fails.
    public static func revokeSession(database: any SQLDatabase, sessionID: String, now: Date = Date()) throws
        -> RevokeSessionOutcome
    {
        try migrate(database: database)
        let seconds = UnixClock.seconds(of: now)
        return try database.transaction {
            guard
                let row = try database.query("SELECT username FROM sessions WHERE id = ?", [.text(sessionID)]).first
            else { throw ReferenceServerError.unknownSession(sessionID) }
            let username = try row.get("username", as: String.self)
            let children = try database.query(
                "SELECT id FROM sessions WHERE parent_id = ? ORDER BY \(database.dialect.byteOrder("id"))",
                [.text(sessionID)]
            ).map { try $0.get("id", as: String.self) }
            var revoked: [String] = []
            for id in [sessionID] + children {
                let changed = try database.execute(
                    "UPDATE sessions SET revoked_at = ?, revoked_reason = 'admin' WHERE id = ? AND revoked_at IS NULL",
                    [.integer(seconds), .text(id)]
                ).changes
                guard changed > 0 else { continue }
                revoked.append(id)
                try database.execute(
                    "UPDATE push_registrations SET disabled_at = ? WHERE session_id = ? AND disabled_at IS NULL",
                    [.integer(seconds), .text(id)])
                _ = try appendEvent(
                    database, type: "session.revoked", to: username, fields: ["session_id": .string(id)], at: now)
            }
            return RevokeSessionOutcome(sessionID: sessionID, username: username, revokedSessionIDs: revoked)
        }
    }

    /// Writes an event row in the same form as the server's own events
    /// (`ReferenceServer.emit`: the body is the type-specific members plus
    /// `type`, keys sorted), without a server to wake.
    /// - Returns: the event's `seq` (its id on the wire).
    static func appendEvent(
        _ database: any SQLDatabase, type: String, to username: String, fields: [String: JSONValue], at date: Date
    ) throws -> Int64 {
        let data = try ServerEvents.bodyText(type: type, fields: fields)
        // RETURNING rather than the rowid: PostgreSQL has none (SQLite 3.35+ reads it too).
        let inserted = try database.query(
            "INSERT INTO events (username, type, body, created_at) VALUES (?, ?, ?, ?) RETURNING seq",
            [
                .text(username), .text(type), .text(data), .text(RFC3339.string(date, precision: .milliseconds)),
            ])
        return try inserted.first?.get("seq", as: Int64.self) ?? 0
    }
}

/// What ``ReferenceServerAdmin/revokeWrite(database:username:channelID:now:)`` did.
public struct RevokeWriteOutcome: Sendable, Equatable, CustomStringConvertible {
    /// The user.
    public let username: String
    /// The channel.
    public let channelID: String
    /// The channel and its threads: the targets whose permission changed.
    public let targetIDs: [String]
    /// False when the user already could not write there (nothing was written).
    public let changed: Bool
    /// The id of the `access.changed` event, when one was written.
    public let eventID: String?

    /// One line for the command line.
    public var description: String {
        guard changed, let eventID else { return "\(username) already cannot write to \(channelID); nothing changed" }
        return "\(username) can no longer write to \(channelID); access.changed event \(eventID) names "
            + targetIDs.joined(separator: ", ")
    }
}

/// What ``ReferenceServerAdmin/revokeSession(database:sessionID:now:)`` did.
public struct RevokeSessionOutcome: Sendable, Equatable, CustomStringConvertible {
    /// The session asked for.
    public let sessionID: String
    /// Its user.
    public let username: String
    /// The sessions revoked now (the session and its children), each with a
    /// `session.revoked` event; empty when all were revoked already.
    public let revokedSessionIDs: [String]

    /// One line for the command line.
    public var description: String {
        guard !revokedSessionIDs.isEmpty else { return "session \(sessionID) of \(username) was already revoked" }
        return "revoked \(revokedSessionIDs.joined(separator: ", ")) of \(username); session.revoked sent for each"
    }
}
