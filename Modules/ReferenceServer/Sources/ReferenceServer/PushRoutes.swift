import Foundation
import ShareKitCore
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitSQLInterface
import ShareKitWireContract

/// Push registration, previews, test pushes and client metrics (docs/protocol.md,
/// "Push" and "Client metrics").
///
/// A push carries ids only. The text is fetched by the notification
/// extension from getPushPreview with a preview token: a credential of its
/// own, bound to one registration, the session that made it and that
/// session's DPoP key, and usable nowhere else. A session's access token is
/// not accepted there, and the preview token is not an access token
/// anywhere else (its hash is not in `sessions`), so an extension that holds
/// it can read previews and nothing more.
enum PushRoutes {
    /// The push services a registration may name (`test` for the reference server's own path).
    static let providers: Set<String> = ["test", "apns", "fcm"]
    /// The client metrics accepted: the notifier's display counters
    /// (docs/observability signals 4.6a); anything else is refused so the
    /// table cannot become a store for whatever a client sends.
    static let metricNames: Set<String> = ["client.push_display.duration", "client.push.placeholder"]
    /// The most metrics in one submitClientMetrics request.
    static let maxMetricsPerRequest = 100
    /// The longest `unit`, `platform` or `app_version`, in Unicode scalars
    /// (what JSON Schema's `maxLength` counts, so the OpenAPI document and
    /// the server agree on non-ASCII text).
    static let maxMetricTextLength = 64
    /// The longest excerpt in a `full` preview, in characters (grapheme
    /// clusters, so an emoji or an accented letter is never cut in half).
    static let excerptLength = 120
    /// Bounds on registration members, in Unicode scalars like
    /// ``maxMetricTextLength`` (what the OpenAPI document's `maxLength`
    /// counts): a device token is at most a few hundred characters; the
    /// bound keeps a client from storing megabytes.
    static let maxTokenLength = 4096
    static let maxFieldLength = 255

    // MARK: registerPush / unregisterPush

    /// `POST /push/registrations`: registers a device's push token for the
    /// calling session and hands out a new preview token (once: only its
    /// hash is stored).
    ///
    /// A known token is taken over: the device now belongs to this
    /// registration, whoever registered it before, so the earlier
    /// registration and its preview token stop working.
    static func register(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        let session = try Authenticator.authenticate(server, context)
        let body = try JSONBody.decode(PushRegistration.self, from: context.body)
        guard providers.contains(body.provider) else {
            throw Problems.badRequest("provider must be one of \(providers.sorted().joined(separator: ", ")).")
        }
        for (name, value, limit) in [
            ("token", body.token, maxTokenLength), ("environment", body.environment, maxFieldLength),
            ("app_id", body.appID, maxFieldLength),
        ] where value.isEmpty || value.unicodeScalars.count > limit {
            throw Problems.badRequest("\(name) must be a non-empty string of at most \(limit) characters.")
        }
        let registrationID = server.ids.id("pr")
        let previewToken = try server.ids.token()
        try server.db.transaction {
            // Registrations of one device token, on any process, replace one another in turn.
            try server.lockKeys(["push-token\n" + body.token])
            try server.db.execute("DELETE FROM push_registrations WHERE token = ?", [.text(body.token)])
            try server.db.execute(
                """
                INSERT INTO push_registrations (id, username, session_id, provider, token, environment, app_id,
                    preview_token_hash, jkt, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(registrationID), .text(session.username), .text(session.sessionID), .text(body.provider),
                    .text(body.token), .text(body.environment), .text(body.appID),
                    .text(try server.ids.hash(previewToken)), .text(session.jkt), .integer(server.now),
                ])
        }
        return JSONBody.response(
            201, PushRegistrationCreated(registrationID: registrationID, previewToken: previewToken),
            headers: ["Cache-Control": "no-store"])
    }

    /// `DELETE /push/registrations/{id}`: any session of the owner may
    /// remove it (the app unregisters after a new login); for anyone else
    /// it does not exist.
    static func unregister(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        let session = try Authenticator.authenticate(server, context)
        let id = context.parameter("id")
        let removed = try server.db.execute(
            "DELETE FROM push_registrations WHERE id = ? AND username = ?", [.text(id), .text(session.username)]
        ).changes
        guard removed > 0 else { throw Problems.notFound("Push registration \(id)") }
        return HTTPResponse(status: 204)
    }

    // MARK: getPushPreview

    /// `GET /push/preview?nid=&message_id=` with `Authorization: DPoP
    /// <preview token>` and a proof of the registration's key.
    ///
    /// The answer follows the user's `notify.preview_mode` at the time of
    /// the request, not at the time of the push, so a change of mind
    /// applies to notifications already on their way:
    /// - `full`: sender, thread title, channel name, an excerpt, and the
    ///   message's web link (`web_url`, the default action of the notification);
    /// - `names`: the same without the `excerpt` member;
    /// - `none`: `403 preview_disabled` and no content. A client in mode
    ///   none makes no request; one whose copy of the mode is stale gets a
    ///   status that keeps its placeholder (a 404 would claim the message
    ///   is gone), and the answer does not depend on the message, so it
    ///   reveals nothing about it.
    ///
    /// `nid` is required so every fetch names the notification it is for
    /// (logs, metrics); the server does not check it: what may be read is
    /// decided by the message and the user's access alone.
    static func preview(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        let token = try previewToken(context)
        guard
            let registration = try server.db.query(
                """
                SELECT r.username, r.jkt, r.disabled_at, s.revoked_at, s.refresh_expires_at
                FROM push_registrations r LEFT JOIN sessions s ON s.id = r.session_id
                WHERE r.preview_token_hash = ?
                """, [.text(try server.ids.hash(token))]
            ).first
        else { throw invalidPreviewToken("The preview token is not known.") }
        if try registration.get("disabled_at", as: Int64?.self) != nil {
            throw invalidPreviewToken("The push registration was disabled (its session logged out or was revoked).")
        }
        // The token is bound to the session that registered it: once that
        // session is revoked or has lapsed, its previews stop too, even if
        // nobody disabled the registration (refresh reuse, admin revocation).
        guard try registration.get("revoked_at", as: Int64?.self) == nil,
            let sessionEnd = try registration.get("refresh_expires_at", as: Int64?.self), sessionEnd > server.now
        else { throw invalidPreviewToken("The session of the push registration has ended.") }
        _ = try Authenticator.verifyProof(
            server, context, accessToken: token, boundThumbprint: try registration.get("jkt", as: String.self),
            tokenEndpoint: false)
        guard let nid = context.query("nid"), !nid.isEmpty else {
            throw Problems.badRequest("nid is required: the b.nid of the push.")
        }
        guard let messageID = context.query("message_id"), !messageID.isEmpty else {
            throw Problems.badRequest("message_id is required: the b.m of the push.")
        }
        let username = try registration.get("username", as: String.self)
        let mode = try EventRoutes.previewMode(server.db, username: username)
        guard mode != "none" else {
            throw HTTPProblem(
                status: 403, code: "preview_disabled", title: "Previews are turned off",
                detail: "notify.preview_mode is none: notifications show the placeholder.")
        }
        guard RequestContext.canMatchStored(messageID) else { throw Problems.notFound("Message \(messageID)") }
        let message = try visibleMessage(server, id: messageID, username: username)
        let body = PushPreviewBody(
            mode: mode, senderName: message.senderName, threadTitle: message.threadTitle,
            channelName: message.channelName,
            excerpt: mode == "full" ? String(message.text.prefix(excerptLength)) : nil,
            webURL: WebRoutes.messagePath(message.id))
        return JSONBody.response(200, body, headers: ["Cache-Control": "no-store"])
    }

    /// The preview token from `Authorization: DPoP <token>`.
    static func previewToken(_ context: RequestContext) throws -> String {
        guard let authorization = context.head.headers["Authorization"] else {
            throw invalidPreviewToken("The request needs Authorization: DPoP <preview token>.")
        }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "dpop", !parts[1].isEmpty else {
            throw invalidPreviewToken("Use the DPoP authorization scheme with the preview token.")
        }
        return String(parts[1])
    }

    /// Every refusal of a preview token is the same `401 invalid_token`: the
    /// extension never refreshes anything, it keeps its placeholder, and a
    /// caller learns nothing about which registrations exist.
    static func invalidPreviewToken(_ detail: String) -> ProblemResponse {
        ProblemResponse(
            response: Problems.invalidToken(detail).response(headers: [
                "WWW-Authenticate": "DPoP error=\"invalid_token\""
            ]))
    }

    /// What a preview shows of a message the user can read.
    struct VisibleMessage {
        let id: String
        let senderName: String
        let text: String
        let channelID: String
        let channelName: String
        let threadID: String?
        let threadTitle: String?
    }

    /// A message the user can read now; `404 not_found` when it does not
    /// exist or its channel is no longer readable for them (the same
    /// answer, so a lost permission does not reveal that the message is there).
    static func visibleMessage(_ server: ReferenceServer, id: String, username: String) throws -> VisibleMessage {
        guard
            let row = try server.db.query(
                """
                SELECT m.id, m.sender, m.text, m.channel_id, m.thread_id, c.name AS channel_name, t.title AS thread_title
                FROM messages m JOIN channels c ON c.id = m.channel_id
                JOIN channel_access a ON a.channel_id = m.channel_id AND a.username = ? AND a.can_read = 1
                LEFT JOIN threads t ON t.id = m.thread_id
                WHERE m.id = ?
                """, [.text(username), .text(id)]
            ).first
        else { throw Problems.notFound("Message \(id)") }
        return VisibleMessage(
            id: try row.get("id"), senderName: try row.get("sender"), text: try row.get("text"),
            channelID: try row.get("channel_id"), channelName: try row.get("channel_name"),
            threadID: try row.get("thread_id", as: String?.self),
            threadTitle: try row.get("thread_title", as: String?.self))
    }

    // MARK: sendTestPush

    /// `POST /push/test`: puts the push a push service would deliver for a
    /// message onto the caller's event feed (a `push` event with `payload`),
    /// so the notifier path can be exercised without APNs or FCM.
    static func sendTest(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        let session = try Authenticator.authenticate(server, context)
        let body = try JSONBody.decode(TestPushRequest.self, from: context.body)
        let message = try visibleMessage(server, id: body.messageID, username: session.username)
        let nid = server.ids.id("n")
        try server.emit(
            "push", to: session.username,
            fields: [
                "payload": payload(
                    nid: nid, messageID: message.id, target: message.threadID ?? message.channelID,
                    instance: instanceID(server.publicOrigin))
            ])
        return JSONBody.response(202, TestPushSent(nid: nid))
    }

    // MARK: Pushes of new messages

    /// The people a new message is pushed to: every reader of its channel
    /// except its sender, who has at least one working push registration
    /// (not disabled, its session neither revoked nor ended) and has not
    /// turned pushes off (`notify.enabled` false).
    ///
    /// The sender is left out by name, not by session or device: a person's
    /// own message, written from any of their devices, never notifies them.
    /// - Parameters:
    ///   - channelID: the message's channel.
    ///   - sender: the message's sender.
    /// - Returns: the usernames, sorted.
    static func recipients(_ server: ReferenceServer, channelID: String, sender: String) throws -> [String] {
        try recipients(
            in: server.db.query(recipientsQuery, recipientsBindings(server, channelID: channelID, sender: sender)))
    }

    /// The query of ``recipients(_:channelID:sender:)``, whose values are
    /// ``recipientsBindings(_:channelID:sender:)``: a statement that
    /// inserts the message may carry it (``MessageDraft/insert(_:id:sender:channelID:threadID:attachments:)``).
    static let recipientsQuery = """
        SELECT DISTINCT a.username FROM channel_access a
        JOIN push_registrations r ON r.username = a.username AND r.disabled_at IS NULL
        JOIN sessions s ON s.id = r.session_id AND s.revoked_at IS NULL AND s.refresh_expires_at > ?
        LEFT JOIN settings st ON st.username = a.username
        WHERE a.channel_id = ? AND a.can_read = 1 AND a.username <> ? AND COALESCE(st.notify_enabled, 1) = 1
        ORDER BY a.username
        """

    /// The values of ``recipientsQuery``.
    static func recipientsBindings(_ server: ReferenceServer, channelID: String, sender: String) -> [SQLValue] {
        [.integer(server.now), .text(channelID), .text(sender)]
    }

    /// The usernames in the rows of ``recipientsQuery``.
    static func recipients(in rows: [SQLRow]) throws -> [String] {
        try rows.map { try $0.get("username", as: String.self) }
    }

    /// Pushes a new message: one `push` event with the payload of
    /// ``payload(nid:messageID:target:instance:)`` and a notification id of
    /// its own on the feed of every ``recipients(_:channelID:sender:)``.
    ///
    /// Called inside the transaction that inserts the message, so a
    /// message and its pushes commit together: a refused or rolled back
    /// message pushes nothing, and a replayed `client_msg_id` (answered
    /// from the stored message, never inserted again) pushes nothing twice.
    /// - Parameters:
    ///   - message: the message just inserted.
    ///   - recipients: its ``recipients(_:channelID:sender:)`` when the
    ///     insert found them already; nil to look them up.
    static func pushNewMessage(_ server: ReferenceServer, _ message: MessageBody, recipients: [String]? = nil) throws {
        let instance = instanceID(server.publicOrigin)
        let recipients = try recipients ?? self.recipients(server, channelID: message.channelID, sender: message.sender)
        for username in recipients {
            try server.emit(
                "push", to: username,
                fields: [
                    "payload": payload(
                        nid: server.ids.id("n"), messageID: message.id, target: message.threadID ?? message.channelID,
                        instance: instance)
                ])
        }
    }

    /// The payload of a message push (13 6.1): ids only, never content.
    ///
    /// The alert is the localized placeholder by key (`PUSH_TITLE`,
    /// `PUSH_BODY_MESSAGE`, from the app's strings), not text, so even the
    /// placeholder carries nothing from the message; `mutable-content` lets
    /// the notification extension replace it with the preview. `thread-id`
    /// groups notifications per thread (per channel on a channel's main
    /// timeline). The reference server keeps no unread counts, so the badge is 1.
    /// - Parameters:
    ///   - nid: the notification id (`b.nid`).
    ///   - messageID: the message (`b.m`).
    ///   - target: its thread, or its channel on a main timeline (`b.t`, `aps.thread-id`).
    ///   - instance: the server's instance (`b.i`).
    static func payload(nid: String, messageID: String, target targetID: String, instance: String) -> JSONValue {
        let target = JSONValue.string(targetID)
        return [
            "aps": [
                "alert": ["title-loc-key": "PUSH_TITLE", "loc-key": "PUSH_BODY_MESSAGE"],
                "mutable-content": 1, "thread-id": target, "badge": 1, "sound": "default",
            ],
            "b": [
                "v": 1, "nid": .string(nid), "k": "message", "i": .string(instance), "t": target,
                "m": .string(messageID),
            ],
        ]
    }

    /// The instance a push comes from (`b.i`): the authority of the public
    /// origin, host and port, so two servers on one host stay apart (the
    /// client keys its preview token by it).
    static func instanceID(_ origin: String) -> String {
        var authority = Substring(origin)
        if let schemeEnd = authority.range(of: "://") { authority = authority[schemeEnd.upperBound...] }
        if let slash = authority.firstIndex(of: "/") { authority = authority[..<slash] }
        return String(authority)
    }

    // MARK: submitClientMetrics

    /// `POST /client-metrics`: stores the notifier's counters. All or
    /// nothing: one refused metric refuses the request, so a client never
    /// has to work out which half was kept. Attributes other than
    /// `platform` and `app_version` are dropped, never stored.
    static func submitMetrics(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        let session = try Authenticator.authenticate(server, context)
        let body = try JSONBody.decode(ClientMetrics.self, from: context.body)
        guard body.metrics.count <= maxMetricsPerRequest else {
            throw Problems.unprocessable(
                "too_many_metrics", "At most \(maxMetricsPerRequest) metrics per request; send the rest in another.")
        }
        for (index, metric) in body.metrics.enumerated() {
            guard metricNames.contains(metric.name) else {
                throw Problems.unprocessable(
                    "unknown_metric",
                    "metrics[\(index)].name must be one of \(metricNames.sorted().joined(separator: ", ")).")
            }
            guard metric.value.isFinite, metric.value >= 0 else {
                throw Problems.unprocessable(
                    "invalid_metric", "metrics[\(index)].value must be a number of at least 0.")
            }
            for (name, value) in [
                ("unit", metric.unit), ("attributes.platform", metric.attributes.platform),
                ("attributes.app_version", metric.attributes.appVersion),
            ] where value.isEmpty || value.unicodeScalars.count > maxMetricTextLength {
                throw Problems.unprocessable(
                    "invalid_metric",
                    "metrics[\(index)].\(name) must be a non-empty string of at most \(maxMetricTextLength) characters."
                )
            }
        }
        let receivedAt = RFC3339.string(server.clock(), precision: .milliseconds)
        try server.db.transaction {
            for metric in body.metrics {
                // Keys sorted and `/` escaped, as the rows written before.
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                let attributes = try encoder.encode(metric.attributes)
                try server.db.execute(
                    "INSERT INTO client_metrics (username, name, value, unit, attributes, received_at) VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        .text(session.username), .text(metric.name), .real(metric.value), .text(metric.unit),
                        .text(String(decoding: attributes, as: UTF8.self)), .text(receivedAt),
                    ])
            }
        }
        return HTTPResponse(status: 202)
    }
}
