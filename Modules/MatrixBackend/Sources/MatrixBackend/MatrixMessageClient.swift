public import ShareKitCore
public import ShareKitHTTPInterface
public import ShareKitMessagesInterface
public import ShareKitServerAPIInterface
public import ShareKitSessionsInterface

/// Sends a share into a room: each file as `m.image`, `m.video`, `m.audio`
/// or `m.file` with its `info`, the comment (or the text, or the link) as
/// the last file's caption (a following `m.text` on a homeserver older than
/// client-server API v1.10, and the only event of a share without files).
///
/// Exactly once (docs/adr/0032): every event's transaction id is derived
/// from the share's id and the event's place in it, so a retry by the same
/// device is the same event; every event carries the share's id in its
/// content, and before sending, the room's timeline back to the share's own
/// time is read for the events of this share that the person's account
/// sent already (from another device: the daemon taking over the CLI's
/// share), which are not sent again.
public struct MatrixMessageClient: MessageCreating {
    private let homeserver: MatrixHomeserver
    private let tokens: any AccessTokenProvider

    /// The content key that carries the share's id.
    public static let shareIDKey = "org.sharekit.share_id"
    /// The content key that carries the event's place in the share.
    public static let partKey = "org.sharekit.part"
    /// How many message events one page of the timeline lookup reads.
    public static let timelineWindow = 100
    /// How much earlier than the share's own time (its id is a UUIDv7, which
    /// carries it) the lookup still reads: the clocks of the device that made
    /// the share and of the homeserver may disagree by this much.
    public static let clockSkewAllowance: Int64 = 10 * 60 * 1000
    /// The most pages one lookup reads: a room that got more than this many
    /// pages of messages since the share was made is where the takeover's
    /// guarantee ends (a duplicate then, never a loss), and what a lookup
    /// costs stays bounded in a room a hostile member floods.
    public static let maximumTimelinePages = 50
    /// The most files one share sends (each is an event of its own).
    public static let maximumAttachments = 10

    /// - Parameters:
    ///   - homeserver: the homeserver.
    ///   - tokens: the session that sends.
    public init(homeserver: MatrixHomeserver, tokens: any AccessTokenProvider) {
        self.homeserver = homeserver
        self.tokens = tokens
    }

    /// Sends the share's events into the room `target` names.
    public func createMessage(
        in target: ShareTarget, clientMsgID: UUIDv7, text: String, uploadIDs: [String],
        cancellation: HTTPCancellation?
    ) async throws(APIError) -> SentMessage {
        let room: String
        var thread: MatrixThreadID?
        switch target.kind {
        case .channel:
            room = target.id
        case .thread:
            guard let id = MatrixThreadID(target.id) else {
                throw .refused(
                    APIRefusal(operation: "send", status: 404, code: "not_found", message: "no such thread"))
            }
            thread = id
            room = id.room
        case .newPost:
            throw .refused(
                APIRefusal(
                    operation: "send", status: 422, code: "not_a_forum",
                    message: "a Matrix room takes messages, not new posts"))
        }
        let roomPath = "/_matrix/client/v3/rooms/" + MatrixHomeserver.segment(room)
        try await refuseEncrypted(roomPath, cancellation: cancellation)
        var medias: [MatrixMedia] = []
        for id in uploadIDs {
            guard let media = MatrixMedia(uploadID: id) else {
                throw .refused(
                    APIRefusal(
                        operation: "send", status: 422, code: "invalid_attachment",
                        message: "an attachment was not uploaded to this homeserver"))
            }
            medias.append(media)
        }
        guard !medias.isEmpty || !text.isEmpty else {
            throw .refused(
                APIRefusal(operation: "send", status: 422, code: "empty_message", message: "nothing to send"))
        }
        let captions = !medias.isEmpty && !text.isEmpty ? try await supportsCaptions(cancellation: cancellation) : false
        let parts = Self.parts(medias, text: text, captions: captions)
        let shareID = clientMsgID.description
        let earlier = try await sentParts(
            of: clientMsgID, partCount: parts.count, roomPath: roomPath, cancellation: cancellation)
        var lastEvent = ""
        for (index, part) in parts.enumerated() {
            if let event = earlier[index] {
                lastEvent = event
                continue
            }
            var content = part
            if let thread {
                // In the thread, and a reply to its root for clients without threads.
                content["m.relates_to"] = [
                    "rel_type": "m.thread", "event_id": .string(thread.root), "is_falling_back": true,
                    "m.in_reply_to": ["event_id": .string(thread.root)],
                ]
            }
            content[Self.shareIDKey] = .string(shareID)
            content[Self.partKey] = .integer(Int64(index))
            let json = try await homeserver.authorized(
                .put, roomPath + "/send/m.room.message/" + MatrixHomeserver.segment(Self.transactionID(shareID, index)),
                body: MatrixHomeserver.body(.object(content)), tokens: tokens, cancellation: cancellation,
                operation: "send")
            guard let event = json["event_id"]?.stringValue else {
                throw .retryable(
                    APIRetry(kind: .unreadableAnswer(status: 200), message: "send: the homeserver named no event"))
            }
            lastEvent = MatrixText.printable(event, limit: 255)
        }
        return SentMessage(
            messageID: lastEvent, threadID: thread?.text, channelID: room, replayed: earlier.count >= parts.count,
            attachments: zip(uploadIDs, medias).map {
                SentAttachment(uploadID: $0.0, fileName: $0.1.fileName, size: $0.1.size, sha256: $0.1.sha256)
            })
    }

    /// A room has no threads or new posts this backend makes.
    public func createThread(
        inChannel channelID: String, title: String, clientMsgID: UUIDv7, text: String, uploadIDs: [String],
        cancellation: HTTPCancellation?
    ) async throws(APIError) -> SentMessage {
        throw .refused(
            APIRefusal(
                operation: "send", status: 422, code: "not_a_forum",
                message: "a Matrix room takes messages, not new posts"))
    }

    /// The homeserver's upload limit (`m.upload.size` of `/_matrix/client/v1/media/config`).
    public func instanceLimits(cancellation: HTTPCancellation?) async throws(APIError) -> InstanceLimits {
        let json = try await homeserver.authorized(
            .get, "/_matrix/client/v1/media/config", tokens: tokens, cancellation: cancellation,
            operation: "media config")
        // Range-checked: a missing or absurd value is taken as Synapse's default, 50 MiB.
        var size = json["m.upload.size"]?.integerValue ?? 50 * 1024 * 1024
        if size <= 0 || size > 1 << 40 { size = 50 * 1024 * 1024 }
        return InstanceLimits(fileMaxUploadBytes: size, messageMaxAttachments: Self.maximumAttachments)
    }

    /// The events of a share, in order: each file, the comment (or the text,
    /// or the link) as the last file's caption when the homeserver speaks
    /// media captions (`body` is the caption and `filename` the file name,
    /// client-server API v1.10), else as a following `m.text`.
    ///
    /// A caption identical to the file name would read as no caption (the
    /// spec's rule: `body` equal to `filename` is the name), so that comment
    /// is a following `m.text` too.
    /// - Parameters:
    ///   - medias: the uploaded files.
    ///   - text: the comment, text or link; empty for none.
    ///   - captions: whether the homeserver advertises v1.10 or later.
    /// - Returns: each event's content, without the share's marker.
    static func parts(_ medias: [MatrixMedia], text: String, captions: Bool) -> [[String: JSONValue]] {
        var parts = medias.map(\.content)
        guard !text.isEmpty else { return parts }
        if captions, let last = medias.last, text != last.fileName {
            parts[parts.count - 1]["body"] = .string(text)
        } else {
            parts.append(["msgtype": "m.text", "body": .string(text)])
        }
        return parts
    }

    /// Whether a list of spec versions (`/_matrix/client/versions`) includes
    /// v1.10 or later, the first with media captions.
    /// - Parameter versions: the advertised versions (hostile: any strings).
    /// - Returns: true when captions may be sent.
    static func captionsAdvertised(_ versions: [String]) -> Bool {
        versions.contains { version in
            guard version.hasPrefix("v"), version.count <= 16 else { return false }
            let numbers = version.dropFirst().split(separator: ".", omittingEmptySubsequences: false)
            guard numbers.count == 2, let major = Int(numbers[0]), let minor = Int(numbers[1]) else { return false }
            return major > 1 || major == 1 && minor >= 10
        }
    }

    /// Whether the homeserver takes media captions. An unanswered request
    /// fails the send (to be tried again) rather than guessing: the CLI and
    /// the daemon that takes its share over must make the same events, or
    /// the takeover's lookup by part would send the comment twice.
    private func supportsCaptions(cancellation: HTTPCancellation?) async throws(APIError) -> Bool {
        let answer = try await homeserver.exchange(
            .get, "/_matrix/client/versions", token: nil, cancellation: cancellation, operation: "versions")
        guard (200..<300).contains(answer.status) else {
            throw MatrixHomeserver.failure(status: answer.status, json: answer.json, operation: "versions")
        }
        let versions = answer.json?["versions"]?.arrayValue?.prefix(200).compactMap(\.stringValue) ?? []
        return Self.captionsAdvertised(versions)
    }

    /// The transaction id of a share's event: the same for every attempt of
    /// the same device, so the homeserver answers a repeat with the same event.
    static func transactionID(_ shareID: String, _ index: Int) -> String { "sharekit.\(shareID).\(index)" }

    /// An end-to-end encrypted room is refused: this backend does not encrypt.
    private func refuseEncrypted(_ roomPath: String, cancellation: HTTPCancellation?) async throws(APIError) {
        do {
            _ = try await homeserver.authorized(
                .get, roomPath + "/state/m.room.encryption/", tokens: tokens, cancellation: cancellation,
                operation: "room encryption")
        } catch {
            if case .refused(let refusal) = error, refusal.status == 404 { return }
            throw error
        }
        throw .refused(
            APIRefusal(
                operation: "send", status: 422, code: "encrypted_room",
                message: "the room is end-to-end encrypted, and ShareKit does not encrypt yet"))
    }

    /// The events of this share that the person's account sent into the
    /// room already, by their place in the share: the room's message events
    /// are read newest first, page after page, until a page reaches back
    /// before the share's own time (less ``clockSkewAllowance``), every part
    /// is found, the room has no more, or ``maximumTimelinePages`` were read.
    ///
    /// Not only the latest page: the daemon may take a share over minutes
    /// after the CLI's lost answer (its backoff grew while the homeserver was
    /// away), and a busy room has had more than a page of messages since.
    private func sentParts(
        of clientMsgID: UUIDv7, partCount: Int, roomPath: String, cancellation: HTTPCancellation?
    ) async throws(APIError) -> [Int: String] {
        let shareID = clientMsgID.description
        let madeAt = Int64(clamping: clientMsgID.milliseconds) - Self.clockSkewAllowance
        let me = try await homeserver.authorized(
            .get, "/_matrix/client/v3/account/whoami", tokens: tokens, cancellation: cancellation,
            operation: "whoami")["user_id"]?.stringValue
        let filter = MatrixHomeserver.segment(#"{"types":["m.room.message"]}"#)
        var found: [Int: String] = [:]
        var from: String?
        for _ in 0..<Self.maximumTimelinePages {
            var path = roomPath + "/messages?dir=b&limit=\(Self.timelineWindow)&filter=" + filter
            if let from { path += "&from=" + MatrixHomeserver.segment(from) }
            let json = try await homeserver.authorized(
                .get, path, tokens: tokens, cancellation: cancellation, operation: "read the room's timeline")
            let chunk = json["chunk"]?.arrayValue ?? []
            var oldest = Int64.max
            for event in chunk {
                if let time = event["origin_server_ts"]?.integerValue { oldest = min(oldest, time) }
                guard let me, event["sender"]?.stringValue == me, let content = event["content"],
                    content[Self.shareIDKey]?.stringValue == shareID, let index = content[Self.partKey]?.integerValue,
                    (0...Int64(Self.maximumAttachments)).contains(index), let id = event["event_id"]?.stringValue
                else { continue }
                found[Int(index)] = MatrixText.printable(id, limit: 255)
            }
            // The next page's token is hostile input too: a bounded, non-empty string.
            guard found.count < partCount, !chunk.isEmpty, oldest >= madeAt, let next = json["end"]?.stringValue,
                !next.isEmpty, next.utf8.count <= 1024, next != from
            else { break }
            from = next
        }
        return found
    }
}
