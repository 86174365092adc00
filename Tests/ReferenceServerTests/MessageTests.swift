import Foundation
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// createMessage, createChannelMessage and createThread (docs/protocol.md,
/// "Messages and idempotency") against a real `share-server` process: the message object,
/// attachments, limits, permissions and idempotency through `client_msg_id`.
@Suite("reference server: messages")
struct MessageTests {
    @Test(
        "createMessage in a thread and on a channel's timeline answers 201 with the message object",
        arguments: ServerEngine.allCases)
    func createMessages(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine, seed: UploadFlow.seed())
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        let inThread = try await UploadFlow.message(
            alex, "/api/v1/threads/t1/messages", id: "m-1", text: "hello thread")
        #expect(inThread.status == 201)
        let message = try #require(inThread.object["message"] as? [String: Any])
        #expect((message["id"] as? String)?.isEmpty == false)
        #expect(message["client_msg_id"] as? String == "m-1")
        #expect(message["thread_id"] as? String == "t1")
        #expect(message["channel_id"] as? String == "c1")
        #expect(message["sender"] as? String == "alex")
        #expect(message["text"] as? String == "hello thread")
        #expect((message["attachments"] as? [Any])?.isEmpty == true)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let created = try #require((message["created_at"] as? String).flatMap(formatter.date(from:)))
        #expect(abs(created.timeIntervalSinceNow) < 60)

        let onChannel = try await UploadFlow.message(alex, "/api/v1/channels/c1/messages", text: "hello channel")
        #expect(onChannel.status == 201)
        let channelMessage = try #require(onChannel.object["message"] as? [String: Any])
        #expect(channelMessage["thread_id"] is NSNull)
        #expect(channelMessage["channel_id"] as? String == "c1")

        let thread = try await alex.send("GET", "/api/v1/threads/t1/messages")
        let listed = thread.object["messages"] as? [[String: Any]] ?? []
        #expect(listed.map { $0["id"] as? String } == [message["id"] as? String])
        let timeline = try await alex.send("GET", "/api/v1/channels/c1/messages")
        #expect((timeline.object["messages"] as? [[String: Any]])?.map { $0["text"] as? String } == ["hello channel"])
    }

    @Test(
        "attachments: complete uploads of the sender, described in the message, in the order given",
        arguments: ServerEngine.allCases)
    func attachments(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine, seed: UploadFlow.seed())
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        let first = UploadFlow.bytes(1500, seed: 21)
        let second = UploadFlow.bytes(10, seed: 22)
        let a = try await UploadFlow.uploadWhole(alex, first, contentType: "application/pdf")
        let b = try await UploadFlow.uploadWhole(alex, second)
        let sent = try await UploadFlow.message(alex, "/api/v1/threads/t1/messages", text: "", attachments: [b, a])
        #expect(sent.status == 201)
        let described = (sent.object["message"] as? [String: Any])?["attachments"] as? [[String: Any]] ?? []
        #expect(described.map { $0["upload_id"] as? String } == [b, a])
        #expect(described.last?["file_name"] as? String == "notes.txt")
        #expect(described.last?["content_type"] as? String == "application/pdf")
        #expect(described.last?["size"] as? Int == 1500)
        #expect(described.last?["sha256"] as? String == (try UploadFlow.sha256Hex(first)))
        // An attached upload cannot be aborted any more.
        let abort = try await alex.send("DELETE", "/api/v1/uploads/\(a)")
        #expect(abort.status == 409)
    }

    @Test(
        "more than message_max_attachments is 422 too_many_attachments naming the limit",
        arguments: ServerEngine.allCases)
    func attachmentLimit(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine, seed: UploadFlow.seed(maxAttachments: 2))
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        var ids: [String] = []
        for seed in 0..<3 {
            ids.append(try await UploadFlow.uploadWhole(alex, UploadFlow.bytes(100, seed: UInt64(30 + seed))))
        }
        let tooMany = try await UploadFlow.message(alex, "/api/v1/threads/t1/messages", attachments: ids)
        #expect(tooMany.status == 422)
        #expect(tooMany.code == "too_many_attachments")
        let detail = tooMany.object["detail"] as? String ?? ""
        #expect(detail.contains("message_max_attachments") && detail.contains("2"))
        #expect(
            try await UploadFlow.message(alex, "/api/v1/threads/t1/messages", attachments: Array(ids.prefix(2))).status
                == 201)
    }

    @Test(
        "another user's or an unknown upload is 404; an unfinished or repeated one is 422 invalid_attachment",
        arguments: ServerEngine.allCases)
    func invalidAttachments(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine, seed: UploadFlow.seed())
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        let sam = try await UploadFlow.client(server, "sam")
        let samsUpload = try await UploadFlow.uploadWhole(sam, UploadFlow.bytes(100, seed: 40))
        let pending = try #require(
            try await UploadFlow.create(alex, UploadFlow.bytes(100, seed: 41)).object["upload_id"] as? String)
        let mine = try await UploadFlow.uploadWhole(alex, UploadFlow.bytes(100, seed: 42))
        for attachments in [[samsUpload], ["up_unknown"]] {
            let response = try await UploadFlow.message(alex, "/api/v1/threads/t1/messages", attachments: attachments)
            #expect(response.status == 404, "\(attachments)")
            #expect(response.code == "not_found", "\(attachments)")
        }
        for attachments in [[pending], [mine, mine]] {
            let response = try await UploadFlow.message(alex, "/api/v1/threads/t1/messages", attachments: attachments)
            #expect(response.status == 422, "\(attachments)")
            #expect(response.code == "invalid_attachment", "\(attachments)")
        }
        let thread = try await alex.send("GET", "/api/v1/threads/t1/messages")
        #expect((thread.object["messages"] as? [Any])?.isEmpty == true)
        // Sam can attach his own upload.
        #expect(
            try await UploadFlow.message(sam, "/api/v1/threads/t1/messages", attachments: [samsUpload]).status == 201)
    }

    @Test(
        "the same client_msg_id again: 200, the original message, Idempotent-Replayed; a different body: 422 client_msg_id_conflict",
        arguments: ServerEngine.allCases)
    func idempotency(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine, seed: UploadFlow.seed())
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        let path = "/api/v1/threads/t1/messages"
        let first = try await UploadFlow.message(alex, path, id: "same-id", text: "once")
        #expect(first.status == 201)
        #expect(first.headers["idempotent-replayed"] == nil)
        let original = try #require((first.object["message"] as? [String: Any])?["id"] as? String)

        // Another session of the same user (the daemon retrying the CLI's send) gets the replay too.
        let daemon = try await UploadFlow.client(server, "alex")
        for client in [alex, daemon] {
            let replay = try await UploadFlow.message(client, path, id: "same-id", text: "once")
            #expect(replay.status == 200)
            #expect(replay.headers["idempotent-replayed"] == "true")
            #expect((replay.object["message"] as? [String: Any])?["id"] as? String == original)
        }
        let conflict = try await UploadFlow.message(alex, path, id: "same-id", text: "twice")
        #expect(conflict.status == 422)
        #expect(conflict.code == "client_msg_id_conflict")
        let elsewhere = try await UploadFlow.message(alex, "/api/v1/channels/c1/messages", id: "same-id", text: "once")
        #expect(elsewhere.code == "client_msg_id_conflict")

        // Keys are per user.
        let sam = try await UploadFlow.client(server, "sam")
        #expect(try await UploadFlow.message(sam, path, id: "same-id", text: "once").status == 201)
        let listed = try await alex.send("GET", path)
        #expect((listed.object["messages"] as? [Any])?.count == 2)
    }

    @Test(
        "concurrent sends of one client_msg_id from two sessions create exactly one message",
        arguments: ServerEngine.allCases)
    func concurrentDuplicates(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine, seed: UploadFlow.seed())
        defer { server.stop() }
        let cli = try await UploadFlow.client(server, "alex")
        let daemon = try await UploadFlow.client(server, "alex")
        let path = "/api/v1/threads/t1/messages"
        let answers = try await withThrowingTaskGroup(of: TestClient.Response.self) { group in
            for i in 0..<12 {
                let client = i % 2 == 0 ? cli : daemon
                group.addTask { try await UploadFlow.message(client, path, id: "race", text: "only once") }
            }
            return try await group.reduce(into: [TestClient.Response]()) { $0.append($1) }
        }
        #expect(answers.filter { $0.status == 201 }.count == 1)
        #expect(answers.filter { $0.status == 200 && $0.headers["idempotent-replayed"] == "true" }.count == 11)
        let ids = Set(answers.compactMap { ($0.object["message"] as? [String: Any])?["id"] as? String })
        #expect(ids.count == 1)
        let listed = try await cli.send("GET", path)
        #expect((listed.object["messages"] as? [Any])?.count == 1)
    }

    @Test(
        "createThread in a forum: 201 with thread and first message, searchable, idempotent; refused in a chat channel",
        arguments: ServerEngine.allCases)
    func createThread(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine, seed: UploadFlow.seed())
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        let body: [String: Any] = [
            "title": "Upload résumé flow",
            "first_message": ["client_msg_id": "post-1", "text": "first!", "attachments": [String]()],
        ]
        let created = try await alex.send("POST", "/api/v1/channels/c2/threads", json: body)
        #expect(created.status == 201)
        let thread = try #require(created.object["thread"] as? [String: Any])
        let message = try #require(created.object["message"] as? [String: Any])
        let threadID = try #require(thread["id"] as? String)
        #expect(thread["channel_id"] as? String == "c2")
        #expect(thread["title"] as? String == "Upload résumé flow")
        #expect(thread["created_at"] is String)
        #expect(message["thread_id"] as? String == threadID)
        #expect(message["channel_id"] as? String == "c2")
        #expect(message["text"] as? String == "first!")

        let found = try await alex.send("GET", "/api/v1/threads/search?q=resume%20flow")
        #expect(found.array.map { $0["id"] as? String } == [threadID])
        let listed = try await alex.send("GET", "/api/v1/threads/\(threadID)/messages")
        #expect((listed.object["messages"] as? [[String: Any]])?.map { $0["text"] as? String } == ["first!"])

        let replay = try await alex.send("POST", "/api/v1/channels/c2/threads", json: body)
        #expect(replay.status == 200)
        #expect(replay.headers["idempotent-replayed"] == "true")
        #expect((replay.object["thread"] as? [String: Any])?["id"] as? String == threadID)
        #expect((replay.object["message"] as? [String: Any])?["id"] as? String == message["id"] as? String)
        var retitled = body
        retitled["title"] = "Another title"
        #expect(
            try await alex.send("POST", "/api/v1/channels/c2/threads", json: retitled).code == "client_msg_id_conflict")

        var inChat = body
        inChat["first_message"] = ["client_msg_id": "post-2", "text": "hi"]
        let chat = try await alex.send("POST", "/api/v1/channels/c1/threads", json: inChat)
        #expect(chat.status == 422)
        #expect(chat.code == "not_a_forum")
        let blank = try await alex.send(
            "POST", "/api/v1/channels/c2/threads",
            json: ["title": "  ", "first_message": ["client_msg_id": "post-3", "text": "x"]])
        #expect(blank.status == 400)
    }

    @Test(
        "a read-only member gets 403 write_forbidden; a channel or thread the person cannot read is 404",
        arguments: ServerEngine.allCases)
    func permissions(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine, seed: UploadFlow.seed())
        defer { server.stop() }
        let robin = try await UploadFlow.client(server, "robin")
        for path in ["/api/v1/threads/t1/messages", "/api/v1/channels/c1/messages"] {
            let refused = try await UploadFlow.message(robin, path)
            #expect(refused.status == 403, "\(path)")
            #expect(refused.code == "write_forbidden", "\(path)")
        }
        let thread = try await robin.send(
            "POST", "/api/v1/channels/c2/threads",
            json: ["title": "t", "first_message": ["client_msg_id": "x", "text": "x"]])
        #expect(thread.status == 403)
        #expect(thread.code == "write_forbidden")
        #expect(try await UploadFlow.message(robin, "/api/v1/channels/c3/messages").status == 404)
        #expect(try await UploadFlow.message(robin, "/api/v1/threads/t-none/messages").status == 404)
        #expect(try await UploadFlow.message(robin, "/api/v1/channels/c-none/messages").status == 404)
    }

    @Test(
        "after admin revoke-write: new messages are 403, a replay of an earlier one still answers 200",
        arguments: ServerEngine.allCases)
    func revokeWrite(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine, seed: UploadFlow.seed())
        defer { server.stop() }
        let sam = try await UploadFlow.client(server, "sam")
        let path = "/api/v1/threads/t1/messages"
        #expect(try await UploadFlow.message(sam, path, id: "before", text: "sent").status == 201)
        let revoked = try server.admin(["revoke-write", "--user", "sam", "--channel", "c1"])
        #expect(revoked.status == 0, "\(revoked)")
        let refused = try await UploadFlow.message(sam, path, id: "after", text: "new")
        #expect(refused.status == 403)
        #expect(refused.code == "write_forbidden")
        let replay = try await UploadFlow.message(sam, path, id: "before", text: "sent")
        #expect(replay.status == 200)
        #expect(replay.headers["idempotent-replayed"] == "true")
    }

    @Test(
        "bad bodies: 400 for malformed JSON and bad client_msg_id, 422 for empty or too long text",
        arguments: ServerEngine.allCases)
    func validation(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine, seed: UploadFlow.seed())
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        let path = "/api/v1/threads/t1/messages"
        let cases: [(Any, Int, String?)] = [
            (["text": "no id"], 400, "invalid_json"),
            (["client_msg_id": "", "text": "x"], 400, "invalid_client_msg_id"),
            (["client_msg_id": String(repeating: "a", count: 65), "text": "x"], 400, "invalid_client_msg_id"),
            (["client_msg_id": 7, "text": "x"], 400, "invalid_json"),
            (["client_msg_id": "a", "text": "x", "attachments": "up_1"], 400, "invalid_json"),
            (["client_msg_id": "b", "text": "  "], 422, "empty_message"),
            (["client_msg_id": "c", "text": String(repeating: "x", count: 65_537)], 422, "text_too_long"),
        ]
        for (body, status, code) in cases {
            let response = try await alex.send("POST", path, json: body)
            #expect(response.status == status, "\(body)")
            #expect(response.code == code, "\(body)")
        }
        let malformed = try await alex.send("POST", path, body: Data("{\"client_msg_id\":".utf8))
        #expect(malformed.status == 400)
        #expect(try await UploadFlow.message(alex, path, id: String(repeating: "a", count: 64)).status == 201)
        #expect(try await UploadFlow.message(alex, path, text: String(repeating: "x", count: 65_536)).status == 201)
    }

    @Test("a client_msg_id is forgotten after idempotency_retention_seconds", arguments: ServerEngine.allCases)
    func retention(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(
            engine, seed: UploadFlow.seed(extra: ["idempotency_retention_seconds": 1]))
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        let path = "/api/v1/threads/t1/messages"
        #expect(try await UploadFlow.message(alex, path, id: "reused", text: "one").status == 201)
        try await Task.sleep(for: .milliseconds(2100))
        #expect(try await UploadFlow.message(alex, path, id: "reused", text: "two").status == 201)
    }

    @Test(
        "a NUL character in a body's string is refused with 400 invalid_json and stores nothing; in an id, a search or a filter it matches nothing",
        arguments: ServerEngine.allCases)
    func nulCharacters(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine, seed: UploadFlow.seed())
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        let path = "/api/v1/threads/t1/messages"
        for (id, text) in [("m-\u{0}", "fine"), ("m-1", "a\u{0}b")] {
            let refused = try await UploadFlow.message(alex, path, id: id, text: text)
            #expect(refused.status == 400)
            #expect(refused.code == "invalid_json")
        }
        let upload = try await alex.send(
            "POST", "/api/v1/uploads",
            json: [
                "file_name": "a.txt", "content_type": "text/plain;x=\u{0}", "size": 1,
                "sha256": String(repeating: "0", count: 64),
            ])
        #expect(upload.status == 400)
        #expect(upload.code == "invalid_json")
        // An escaped backslash before "u0000" is text, not a NUL.
        let literal = try await UploadFlow.message(alex, path, id: "m-2", text: "\\u0000")
        #expect(literal.status == 201)
        let listed = try await alex.send("GET", path)
        #expect((listed.object["messages"] as? [[String: Any]])?.map { $0["text"] as? String } == ["\\u0000"])

        let search = try await alex.send("GET", "/api/v1/threads/search?q=resume%00")
        #expect(search.status == 200)
        #expect(search.array.isEmpty)
        #expect(try await alex.send("GET", "/api/v1/threads/search?q=resume").array.count == 1)
        // An id or a filter with a NUL names nothing.
        #expect(try await alex.send("GET", "/api/v1/threads/t1%00/messages").status == 404)
        let audit = try await alex.send("GET", "/api/v1/audit?kind=login%00")
        #expect(audit.status == 200)
        #expect((audit.object["items"] as? [Any])?.isEmpty == true)
    }
}
