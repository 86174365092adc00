import Foundation
public import ShareKitCore
import ShareKitHTTPInterface
import ShareKitServerAPIInterface
public import ShareKitSessionsInterface
public import ShareKitTargetStoreInterface

/// The person's joined rooms as targets: `share targets`, the picker and
/// `share send --to` search them by name and alias (prefix matches first),
/// and `--to '#alias:server'` or `--to '!roomid:server'` names one directly.
///
/// A room where the person's power level is below what `m.room.message`
/// needs is read only (not offered, refused with `write_forbidden`); an
/// end-to-end encrypted room is marked in its name and read only as well,
/// since this backend does not encrypt (a later step).
public struct MatrixRoomDirectory: TargetDirectory {
    private let homeserver: MatrixHomeserver
    private let tokens: any AccessTokenProvider

    /// What a room's name says when it is end-to-end encrypted.
    public static let encryptedMark = "[end-to-end encrypted]"

    /// - Parameters:
    ///   - homeserver: the homeserver.
    ///   - tokens: the session that asks.
    public init(homeserver: MatrixHomeserver, tokens: any AccessTokenProvider) {
        self.homeserver = homeserver
        self.tokens = tokens
    }

    /// One joined room as this backend sees it.
    struct Room: Sendable {
        var id: String
        var name: String?
        var alias: String?
        var encrypted: Bool
        var canWrite: Bool
        /// The thread roots of the room (`m.thread`), newest first: each is a target too.
        var threads: [(root: String, title: String)] = []

        /// The room as a target: its alias (or id) as the "space", its name as the "channel".
        var candidate: TargetCandidate {
            let label = alias ?? id
            var channel = name ?? alias ?? id
            if encrypted { channel += " " + MatrixRoomDirectory.encryptedMark }
            return TargetCandidate(
                kind: .channel, id: id, canWrite: canWrite && !encrypted, spaceName: label, channelID: id,
                channelName: channel)
        }

        /// The room's threads as targets: the thread id is the room id and
        /// the root event's id (``MatrixThreadID``).
        var threadCandidates: [TargetCandidate] {
            let room = candidate
            return threads.map {
                TargetCandidate(
                    kind: .thread, id: MatrixThreadID(room: id, root: $0.root).text, canWrite: room.canWrite,
                    spaceName: room.spaceName, channelID: id, channelName: room.channelName, threadTitle: $0.title)
            }
        }
    }

    /// The joined rooms matching `query` (name or alias, case-insensitive),
    /// those whose name or alias starts with it first.
    public func search(query: String, limit: Int, includingReadOnly: Bool) async throws(TargetError)
        -> [TargetCandidate]
    {
        let rooms = try await joinedRooms()
        let needle = query.lowercased()
        func rank(_ room: Room) -> Int? {
            let texts = [room.name, room.alias, room.alias.map { String($0.dropFirst()) }].compactMap {
                $0?.lowercased()
            }
            if needle.isEmpty { return 1 }
            if texts.contains(where: { $0.hasPrefix(needle) }) { return 0 }
            if texts.contains(where: { $0.contains(needle) }) { return 1 }
            return nil
        }
        let ranked = rooms.compactMap { room in rank(room).map { (room, $0) } }
            .filter { includingReadOnly || $0.0.candidate.canWrite }
            .sorted { ($0.1, $0.0.name ?? $0.0.id) < ($1.1, $1.0.name ?? $1.0.id) }
        var found = ranked.map(\.0.candidate)
        // Threads whose title matches, after the rooms.
        for room in rooms where includingReadOnly || room.candidate.canWrite {
            found += room.threadCandidates.filter {
                needle.isEmpty || ($0.threadTitle ?? "").lowercased().contains(needle)
            }
        }
        return Array(found.prefix(max(0, limit)))
    }

    /// A room named by id (`!id:server`), alias (`#alias:server`) or name.
    public func resolve(_ text: String) async throws(TargetError) -> ShareTarget {
        var trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        // The picker's and `share targets`' reference of a room: `channel:!id:server`.
        if trimmed.hasPrefix("channel:") { trimmed = String(trimmed.dropFirst("channel:".count)) }
        let rooms = try await joinedRooms()
        if trimmed.hasPrefix("thread:") {
            let wanted = String(trimmed.dropFirst("thread:".count))
            guard let thread = MatrixThreadID(wanted), let room = rooms.first(where: { $0.id == thread.room }) else {
                throw .notFound(trimmed, suggestions: [])
            }
            let candidate =
                room.threadCandidates.first { $0.target.id == wanted }
                ?? TargetCandidate(
                    kind: .thread, id: wanted, canWrite: room.candidate.canWrite, spaceName: room.candidate.spaceName,
                    channelID: room.id, channelName: room.candidate.channelName, threadTitle: "thread " + thread.root)
            guard candidate.canWrite else { throw .notWritable(candidate.target) }
            return candidate.target
        }
        var wanted: Room?
        if trimmed.hasPrefix("!") {
            wanted = rooms.first { $0.id == trimmed }
        } else if trimmed.hasPrefix("#") {
            let id = try await roomID(ofAlias: trimmed)
            wanted = rooms.first { $0.id == id || $0.alias == trimmed }
        } else {
            let named = rooms.filter { $0.name == trimmed || $0.candidate.target.displayPath == trimmed }
            if named.count > 1 { throw .ambiguous(trimmed, candidates: named.map(\.candidate)) }
            wanted = named.first
        }
        guard let room = wanted else {
            let suggestions =
                trimmed.isEmpty ? [] : try await search(query: trimmed, limit: 5, includingReadOnly: false)
            throw .notFound(trimmed, suggestions: suggestions)
        }
        guard room.candidate.canWrite else { throw .notWritable(room.candidate.target) }
        return room.candidate.target
    }

    private func roomID(ofAlias alias: String) async throws(TargetError) -> String? {
        do {
            let json = try await homeserver.authorized(
                .get, "/_matrix/client/v3/directory/room/" + MatrixHomeserver.segment(alias), tokens: tokens,
                operation: "resolve alias")
            return json["room_id"]?.stringValue
        } catch {
            if case .refused = error { return nil }
            throw Self.unavailable(error)
        }
    }

    /// Every joined room with its name, alias, encryption and whether the
    /// person may post there (one state request per room).
    func joinedRooms() async throws(TargetError) -> [Room] {
        do {
            let me =
                try await homeserver.authorized(
                    .get, "/_matrix/client/v3/account/whoami", tokens: tokens, operation: "whoami")["user_id"]?
                .stringValue ?? ""
            let joined = try await homeserver.authorized(
                .get, "/_matrix/client/v3/joined_rooms", tokens: tokens, operation: "joined rooms")
            let ids = (joined["joined_rooms"]?.arrayValue ?? []).compactMap(\.stringValue).prefix(500)
            var rooms: [Room] = []
            for id in ids {
                let state = try await homeserver.authorizedArray(
                    .get, "/_matrix/client/v3/rooms/\(MatrixHomeserver.segment(id))/state", tokens: tokens,
                    operation: "room state")
                var room = Self.room(id: id, state: state, me: me)
                room.threads = await threads(of: id)
                rooms.append(room)
            }
            return rooms
        } catch {
            throw Self.unavailable(error)
        }
    }

    /// The room's latest thread roots (`GET /_matrix/client/v1/rooms/{room}/threads`),
    /// titled by the root's text; none when the homeserver does not say.
    private func threads(of room: String) async -> [(root: String, title: String)] {
        guard
            let json = try? await homeserver.authorized(
                .get, "/_matrix/client/v1/rooms/\(MatrixHomeserver.segment(room))/threads?limit=20", tokens: tokens,
                operation: "room threads")
        else { return [] }
        return (json["chunk"]?.arrayValue ?? []).compactMap { event in
            guard let root = event["event_id"]?.stringValue, root.hasPrefix("$"), root.count < 256 else { return nil }
            let body = event["content"]?["body"]?.stringValue ?? root
            return (root, MatrixText.printable(body.split(separator: "\n").first.map(String.init) ?? body, limit: 80))
        }
    }

    /// A room from its state events.
    static func room(id: String, state: [JSONValue], me: String) -> Room {
        func content(_ type: String) -> JSONValue? {
            state.first { $0["type"]?.stringValue == type && $0["state_key"]?.stringValue == "" }?["content"]
        }
        let name = content("m.room.name")?["name"]?.stringValue.map { MatrixText.printable($0, limit: 200) }
        let alias = content("m.room.canonical_alias")?["alias"]?.stringValue.map {
            MatrixText.printable($0, limit: 255)
        }
        let encrypted = content("m.room.encryption") != nil
        var canWrite = true
        if let levels = content("m.room.power_levels") {
            let mine = levels["users"]?[me]?.integerValue ?? levels["users_default"]?.integerValue ?? 0
            let needed =
                levels["events"]?["m.room.message"]?.integerValue ?? levels["events_default"]?.integerValue ?? 0
            canWrite = mine >= needed
        }
        return Room(
            id: MatrixText.printable(id, limit: 255), name: name?.isEmpty == true ? nil : name,
            alias: alias?.isEmpty == true ? nil : alias, encrypted: encrypted, canWrite: canWrite)
    }

    static func unavailable(_ error: APIError) -> TargetError {
        .unavailable(reason: error.summary, retryable: error.isRetryable)
    }
}

/// A thread of a Matrix room as one target id: the room id, `|`, and the
/// thread root's event id (neither contains `|`).
public struct MatrixThreadID: Hashable, Sendable {
    /// The room.
    public var room: String
    /// The thread root's event id (`$...`).
    public var root: String

    /// - Parameters:
    ///   - room: the room id.
    ///   - root: the root's event id.
    public init(room: String, root: String) {
        self.room = room
        self.root = root
    }

    /// Reads a target id; nil when it is not a room and a root event.
    public init?(_ text: String) {
        let parts = text.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].hasPrefix("!"), parts[1].hasPrefix("$"), parts[1].count > 1 else { return nil }
        room = String(parts[0])
        root = String(parts[1])
    }

    /// The target id.
    public var text: String { room + "|" + root }
}
