import Foundation
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// Push registration, the preview endpoint and its token, test pushes and
/// client metrics (docs/protocol.md, "Push" and "Client metrics") against a
/// real `share-server` process.
@Suite("reference server: push")
struct PushTests {
    @Test(
        "the preview renders exactly the fields of each mode; none answers 403 preview_disabled",
        arguments: ServerEngine.allCases)
    func previewModes(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine)
        defer { server.stop() }
        let alex = try await TestClient.demo("alex", on: server)
        let sam = try await TestClient.demo("sam", on: server)
        let registration = try await Push.register(alex, token: "apns-device-alex")

        // 119 letters and a flag emoji (one character of several scalars) straddling the cut.
        let long = String(repeating: "a", count: 119) + "🇩🇪" + " and more text after the excerpt"
        let inThread = try await Push.message(sam, in: "/api/v1/threads/t1/messages", text: long)
        let onTimeline = try await Push.message(sam, in: "/api/v1/channels/c1/messages", text: "short")

        let full = try await Push.preview(alex, registration.previewToken, messageID: inThread)
        #expect(full.status == 200)
        #expect(full.headers["cache-control"] == "no-store")
        #expect(
            Set(full.object.keys) == ["mode", "sender_name", "thread_title", "channel_name", "excerpt", "web_url"])
        #expect(full.object["web_url"] as? String == "/web/messages/\(inThread)")
        #expect(full.object["mode"] as? String == "full")
        #expect(full.object["sender_name"] as? String == "sam")
        #expect(full.object["thread_title"] as? String == "resume the gateway")
        #expect(full.object["channel_name"] as? String == "Gateway")
        #expect(full.object["excerpt"] as? String == String(repeating: "a", count: 119) + "🇩🇪")

        let timeline = try await Push.preview(alex, registration.previewToken, messageID: onTimeline)
        #expect(timeline.status == 200)
        #expect(timeline.object["thread_title"] is NSNull)
        #expect(timeline.object["excerpt"] as? String == "short")

        #expect(
            try await alex.send("PATCH", "/api/v1/settings", json: ["notify": ["preview_mode": "names"]]).status == 200)
        let names = try await Push.preview(alex, registration.previewToken, messageID: inThread)
        #expect(names.status == 200)
        #expect(Set(names.object.keys) == ["mode", "sender_name", "thread_title", "channel_name", "web_url"])
        #expect(names.object["mode"] as? String == "names")

        #expect(
            try await alex.send("PATCH", "/api/v1/settings", json: ["notify": ["preview_mode": "none"]]).status == 200)
        let none = try await Push.preview(alex, registration.previewToken, messageID: inThread)
        #expect(none.status == 403)
        #expect(none.code == "preview_disabled")
        #expect(!none.text.contains("sam") && !none.text.contains("Gateway"))
        // With none the answer does not depend on the message: no existence oracle.
        #expect(
            try await Push.preview(alex, registration.previewToken, messageID: "m_missing").code == "preview_disabled")
    }

    @Test(
        "a message's web_url: in message answers and previews; without a web session it leads to the login",
        arguments: ServerEngine.allCases)
    func webLinks(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine)
        defer { server.stop() }
        let alex = try await TestClient.demo("alex", on: server)
        let secret = "the deploy window moves to Thursday"
        let created = try await EventFeed.createMessage(alex, in: "/api/v1/threads/t1/messages", text: secret)
        #expect(created.status == 201)
        let message = try #require(created.object["message"] as? [String: Any])
        let id = try #require(message["id"] as? String)
        let link = try #require(message["web_url"] as? String)
        #expect(link == "/web/messages/\(id)")
        let listed = try await alex.send("GET", "/api/v1/threads/t1/messages")
        let first = (listed.object["messages"] as? [[String: Any]])?.first { $0["id"] as? String == id }
        #expect(first?["web_url"] as? String == link)

        // A browser without a session: the web reader's login first, the
        // same answer for any well-formed id, so it tells nothing about
        // which messages exist (WebReaderTests follow the rest).
        let page = try WebReaderTests.page(server, link)
        #expect(page.status == 303)
        #expect(page.headers["location"] == "/web/login?next=\(link)")
        #expect(!page.body.contains(secret) && !page.body.contains("resume the gateway"), "the answer shows no content")
        let unknown = try WebReaderTests.page(server, "/web/messages/m_not_there")
        #expect(unknown.status == 303)
        #expect(unknown.headers["location"] == "/web/login?next=/web/messages/m_not_there")
        for bad in ["/web/messages/%3Cscript%3E", "/web/messages/" + String(repeating: "a", count: 129)] {
            let refused = try await alex.send("GET", bad, token: .some(nil), proof: false)
            #expect(refused.status == 404, "\(bad)")
            #expect(!refused.text.contains("<script>"))
        }
    }

    @Test("404 for a message that does not exist or that the user cannot read", arguments: ServerEngine.allCases)
    func previewNotFound(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine)
        defer { server.stop() }
        let sam = try await TestClient.demo("sam", on: server)
        let robin = try await TestClient.demo("robin", on: server)
        let registration = try await Push.register(sam, token: "fcm-device-sam", provider: "fcm")
        // c4 (design/Reviews) is readable for alex and robin only.
        let hidden = try await Push.message(robin, in: "/api/v1/channels/c4/messages", text: "not for sam")

        let missing = try await Push.preview(sam, registration.previewToken, messageID: "m_does_not_exist")
        #expect(missing.status == 404)
        #expect(missing.code == "not_found")
        let invisible = try await Push.preview(sam, registration.previewToken, messageID: hidden)
        #expect(invisible.status == 404)
        #expect(invisible.code == "not_found")
        #expect(!invisible.text.contains("not for sam"))
        let noMessage = try await sam.send(
            "GET", "/api/v1/push/preview?nid=n1", token: .some(registration.previewToken))
        #expect(noMessage.status == 400)
    }

    @Test(
        "the preview endpoint refuses a session token; resources refuse the preview token; the key is bound",
        arguments: ServerEngine.allCases)
    func tokensAreNotInterchangeable(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine)
        defer { server.stop() }
        let alex = try await TestClient.demo("alex", on: server)
        let registration = try await Push.register(alex, token: "apns-device-alex")
        let message = try await Push.message(alex, in: "/api/v1/threads/t1/messages", text: "hello")

        #expect(try await Push.preview(alex, registration.previewToken, messageID: message).status == 200)
        let withSessionToken = try await Push.preview(alex, try #require(alex.accessToken), messageID: message)
        #expect(withSessionToken.status == 401)
        #expect(withSessionToken.code == "invalid_token")
        let previewAsAccess = try await alex.send("GET", "/api/v1/spaces", token: .some(registration.previewToken))
        #expect(previewAsAccess.status == 401)
        #expect(previewAsAccess.code == "invalid_token")
        let register = try await alex.send(
            "POST", "/api/v1/push/registrations", json: Push.registrationBody(token: "other"),
            token: .some(registration.previewToken))
        #expect(register.status == 401)

        // The preview token is bound to the registering session's key.
        let thief = try TestClient(origin: server.origin)
        let stolen = try await Push.preview(thief, registration.previewToken, messageID: message)
        #expect(stolen.status == 401)
        #expect(stolen.code == "invalid_dpop_proof")
        let noProof = try await alex.send(
            "GET", "/api/v1/push/preview?nid=n1&message_id=\(message)", token: .some(registration.previewToken),
            proof: false)
        #expect(noProof.status == 401)
        let bearer = try await alex.send(
            "GET", "/api/v1/push/preview?nid=n1&message_id=\(message)",
            headers: ["Authorization": "Bearer \(registration.previewToken)"], token: .some(nil))
        #expect(bearer.status == 401)
    }

    @Test(
        "registering a known token takes it over: the old preview token stops working", arguments: ServerEngine.allCases
    )
    func takeover(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine)
        defer { server.stop() }
        let alex = try await TestClient.demo("alex", on: server)
        let sam = try await TestClient.demo("sam", on: server)
        let message = try await Push.message(alex, in: "/api/v1/threads/t1/messages", text: "hello")

        let first = try await Push.register(alex, token: "shared-device")
        let second = try await Push.register(alex, token: "shared-device")
        #expect(first.id != second.id && first.previewToken != second.previewToken)
        #expect(try await Push.preview(alex, first.previewToken, messageID: message).code == "invalid_token")
        #expect(try await Push.preview(alex, second.previewToken, messageID: message).status == 200)
        // The old registration is gone, not just silenced.
        #expect(try await alex.send("DELETE", "/api/v1/push/registrations/\(first.id)").status == 404)

        // Another person on the same device takes it over too.
        let samOnDevice = try await Push.register(sam, token: "shared-device")
        #expect(try await Push.preview(alex, second.previewToken, messageID: message).code == "invalid_token")
        #expect(try await Push.preview(sam, samOnDevice.previewToken, messageID: message).status == 200)
    }

    @Test(
        "registration validation; unregister is for the owner only and ends the preview token",
        arguments: ServerEngine.allCases)
    func registerAndUnregister(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine)
        defer { server.stop() }
        let alex = try await TestClient.demo("alex", on: server)
        let sam = try await TestClient.demo("sam", on: server)
        let message = try await Push.message(alex, in: "/api/v1/threads/t1/messages", text: "hello")

        var wrongProvider = Push.registrationBody(token: "x")
        wrongProvider["provider"] = "gcm"
        var emptyToken = Push.registrationBody(token: "")
        emptyToken["app_id"] = "com.example.share"
        var missingMember = Push.registrationBody(token: "x")
        missingMember.removeValue(forKey: "environment")
        // Lengths count characters (Unicode scalars), as the document's maxLength does.
        var longEnvironment = Push.registrationBody(token: "y")
        longEnvironment["environment"] = String(repeating: "x", count: 256)
        for body in [wrongProvider, emptyToken, missingMember, longEnvironment] {
            #expect(try await alex.send("POST", "/api/v1/push/registrations", json: body).status == 400)
        }
        var wideEnvironment = Push.registrationBody(token: "apns-device-wide")
        wideEnvironment["environment"] = String(repeating: "é", count: 255)
        #expect(try await alex.send("POST", "/api/v1/push/registrations", json: wideEnvironment).status == 201)

        let registration = try await Push.register(alex, token: "apns-device-alex")
        let foreign = try await sam.send("DELETE", "/api/v1/push/registrations/\(registration.id)")
        #expect(foreign.status == 404)
        #expect(try await Push.preview(alex, registration.previewToken, messageID: message).status == 200)
        #expect(try await alex.send("DELETE", "/api/v1/push/registrations/\(registration.id)").status == 204)
        #expect(try await Push.preview(alex, registration.previewToken, messageID: message).code == "invalid_token")
        #expect(try await alex.send("DELETE", "/api/v1/push/registrations/\(registration.id)").status == 404)
    }

    @Test(
        "logout disables the session's registrations; admin revoke-session does too", arguments: ServerEngine.allCases)
    func logoutDisablesRegistrations(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine)
        defer { server.stop() }
        let alex = try await TestClient.demo("alex", on: server)
        let other = try await TestClient.demo("alex", on: server)
        let message = try await Push.message(alex, in: "/api/v1/threads/t1/messages", text: "hello")
        let registration = try await Push.register(alex, token: "apns-device-alex")
        let otherRegistration = try await Push.register(other, token: "apns-device-alex-2")

        #expect(try await alex.send("POST", "/api/v1/auth/logout").status == 204)
        let after = try await Push.preview(alex, registration.previewToken, messageID: message)
        #expect(after.status == 401)
        #expect(after.code == "invalid_token")
        // Only that session's: the other session's registration still works.
        #expect(try await Push.preview(other, otherRegistration.previewToken, messageID: message).status == 200)

        let revoked = try server.admin(["revoke-session", "--session", try #require(other.sessionID)])
        #expect(revoked.status == 0, "admin failed: \(revoked.stderr)")
        #expect(
            try await Push.preview(other, otherRegistration.previewToken, messageID: message).code == "invalid_token")
    }

    @Test("a test push puts a push event with ids only on the caller's feed", arguments: ServerEngine.allCases)
    func testPush(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine)
        defer { server.stop() }
        let alex = try await TestClient.demo("alex", on: server)
        let robin = try await TestClient.demo("robin", on: server)
        let secret = "the secret launch date"
        let message = try await Push.message(alex, in: "/api/v1/threads/t1/messages", text: secret)
        let cursor = try #require(try await EventFeed.poll(alex, after: nil, wait: 0).object["cursor"] as? String)

        let sent = try await alex.send("POST", "/api/v1/push/test", json: ["message_id": message])
        #expect(sent.status == 202)
        let nid = try #require(sent.object["nid"] as? String)
        let events = EventFeed.events(try await EventFeed.poll(alex, after: cursor, wait: 5))
        #expect(events.map { $0["type"] as? String } == ["push"])
        let payload = try #require(events.first?["payload"] as? [String: Any])
        let b = try #require(payload["b"] as? [String: Any])
        #expect(b["v"] as? Int == 1)
        #expect(b["nid"] as? String == nid)
        #expect(b["k"] as? String == "message")
        #expect(b["t"] as? String == "t1")
        #expect(b["m"] as? String == message)
        #expect((b["i"] as? String)?.isEmpty == false)
        #expect(Set(b.keys) == ["v", "nid", "k", "i", "t", "m"])
        let aps = try #require(payload["aps"] as? [String: Any])
        #expect(aps["mutable-content"] as? Int == 1)
        #expect(aps["thread-id"] as? String == "t1")
        #expect(aps["badge"] as? Int == 1)
        // No content anywhere in the payload: not the text, the sender, the thread or the channel.
        let encoded = String(decoding: try JSONSerialization.data(withJSONObject: payload), as: UTF8.self)
        for content in [secret, "alex", "resume the gateway", "Gateway"] {
            #expect(!encoded.contains(content), "the payload leaks \(content)")
        }

        // The preview for the pushed ids works with a registration.
        let registration = try await Push.register(alex, token: "apns-device-alex")
        let preview = try await alex.send(
            "GET", "/api/v1/push/preview?nid=\(nid)&message_id=\(message)", token: .some(registration.previewToken))
        #expect(preview.object["excerpt"] as? String == secret)

        // A message the caller cannot read (t3 is in c2, which robin cannot read) does not exist for them.
        let hidden = try await Push.message(alex, in: "/api/v1/threads/t3/messages", text: "forum")
        #expect(try await robin.send("POST", "/api/v1/push/test", json: ["message_id": hidden]).status == 404)
        #expect(try await alex.send("POST", "/api/v1/push/test", json: ["message_id": "m_nope"]).status == 404)
    }

    @Test(
        "a new message pushes ids only to every reader with a registration, never to its sender on any device",
        arguments: ServerEngine.allCases)
    func messagePushes(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine)
        defer { server.stop() }
        let alex = try await TestClient.demo("alex", on: server)
        let alexLaptop = try await TestClient.demo("alex", on: server)
        let sam = try await TestClient.demo("sam", on: server)
        let robin = try await TestClient.demo("robin", on: server)
        _ = try await Push.register(alex, token: "apns-alex-phone")
        _ = try await Push.register(alexLaptop, token: "apns-alex-laptop")
        _ = try await Push.register(sam, token: "apns-sam")
        // Robin reads c1 but registered no device: nothing to push to.
        var cursors: [String: String] = [:]
        for (name, client) in [("alex", alex), ("sam", sam), ("robin", robin)] {
            cursors[name] = try #require(
                try await EventFeed.poll(client, after: nil, wait: 0).object["cursor"] as? String)
        }
        func pushes(_ client: TestClient, _ name: String) async throws -> [[String: Any]] {
            let answer = try await EventFeed.poll(client, after: cursors[name], wait: 0)
            cursors[name] = answer.object["cursor"] as? String
            return EventFeed.events(answer).filter { $0["type"] as? String == "push" }
        }

        let secret = "the secret launch date"
        let inThread = try await Push.message(sam, in: "/api/v1/threads/t1/messages", text: secret)
        let toAlex = try await pushes(alex, "alex")
        #expect(toAlex.count == 1, "one push per person, whatever their devices: \(toAlex)")
        let payload = try #require(toAlex.first?["payload"] as? [String: Any])
        let b = try #require(payload["b"] as? [String: Any])
        #expect(b["m"] as? String == inThread)
        #expect(b["t"] as? String == "t1")
        #expect(b["k"] as? String == "message")
        #expect((b["nid"] as? String)?.hasPrefix("n_") == true)
        #expect((payload["aps"] as? [String: Any])?["thread-id"] as? String == "t1")
        let encoded = String(decoding: try JSONSerialization.data(withJSONObject: payload), as: UTF8.self)
        for content in [secret, "sam", "resume the gateway", "Gateway"] {
            #expect(!encoded.contains(content), "the push leaks \(content)")
        }
        #expect(try await pushes(sam, "sam").isEmpty, "the sender is never notified of their own message")
        #expect(try await pushes(robin, "robin").isEmpty, "no registration, no push")

        // Alex writes from the laptop: neither of alex's devices is notified; sam is.
        let fromLaptop = try await Push.message(alexLaptop, in: "/api/v1/channels/c1/messages", text: "hi")
        #expect(try await pushes(alex, "alex").isEmpty)
        let toSam = try await pushes(sam, "sam")
        #expect(toSam.count == 1)
        let samB = try #require((toSam.first?["payload"] as? [String: Any])?["b"] as? [String: Any])
        #expect(samB["m"] as? String == fromLaptop)
        #expect(samB["t"] as? String == "c1", "a main timeline message groups by its channel")

        // A replayed client_msg_id is the same message: no second push.
        let id = UUID().uuidString.lowercased()
        #expect(try await UploadFlow.message(sam, "/api/v1/threads/t3/messages", id: id).status == 201)
        #expect(try await UploadFlow.message(sam, "/api/v1/threads/t3/messages", id: id).status == 200)
        #expect(try await pushes(alex, "alex").count == 1)
        // A refused message (robin cannot write in c1) pushes nothing.
        #expect(try await UploadFlow.message(robin, "/api/v1/channels/c1/messages").status == 403)
        #expect(try await pushes(alex, "alex").isEmpty)
        // A new thread's first message pushes to the forum's readers.
        let thread = try await sam.send(
            "POST", "/api/v1/channels/c2/threads",
            json: [
                "title": "new idea", "first_message": ["client_msg_id": UUID().uuidString.lowercased(), "text": "x"],
            ])
        #expect(thread.status == 201, "createThread: \(thread.text)")
        let threadID = try #require((thread.object["thread"] as? [String: Any])?["id"] as? String)
        let toAlexThread = try await pushes(alex, "alex")
        #expect(toAlexThread.count == 1)
        #expect(
            ((toAlexThread.first?["payload"] as? [String: Any])?["b"] as? [String: Any])?["t"] as? String == threadID)
    }

    @Test("notify.enabled false: no pushes of messages for that person until it is true again")
    func notifyEnabled() async throws {
        let server = try await ServerProcess.start(.sqlite)
        defer { server.stop() }
        let alex = try await TestClient.demo("alex", on: server)
        let sam = try await TestClient.demo("sam", on: server)
        _ = try await Push.register(alex, token: "apns-alex")
        #expect(
            ((try await alex.send("GET", "/api/v1/settings")).object["notify"] as? [String: Any])?["enabled"] as? Bool
                == true)
        let off = try await alex.send("PATCH", "/api/v1/settings", json: ["notify": ["enabled": false]])
        #expect(off.status == 200)
        #expect((off.object["notify"] as? [String: Any])?["enabled"] as? Bool == false)
        #expect((off.object["notify"] as? [String: Any])?["preview_mode"] as? String == "full")
        var cursor = try #require(try await EventFeed.poll(alex, after: nil, wait: 0).object["cursor"] as? String)
        func pushes() async throws -> Int {
            let answer = try await EventFeed.poll(alex, after: cursor, wait: 0)
            cursor = answer.object["cursor"] as? String ?? cursor
            return EventFeed.events(answer).filter { $0["type"] as? String == "push" }.count
        }
        _ = try await Push.message(sam, in: "/api/v1/threads/t1/messages", text: "quiet")
        #expect(try await pushes() == 0, "notify.enabled false: nothing pushed")
        #expect(
            try await alex.send("PATCH", "/api/v1/settings", json: ["notify": ["enabled": true]]).status == 200)
        _ = try await Push.message(sam, in: "/api/v1/threads/t1/messages", text: "loud")
        #expect(try await pushes() == 1)
    }

    @Test(
        "client metrics: the notifier's counters are accepted; other names and oversized batches are refused",
        arguments: ServerEngine.allCases)
    func clientMetrics(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine)
        defer { server.stop() }
        let alex = try await TestClient.demo("alex", on: server)
        func metric(_ name: String, _ value: Any = 1) -> [String: Any] {
            ["name": name, "value": value, "unit": "ms", "attributes": ["platform": "ios", "app_version": "1.0.0"]]
        }
        let accepted = try await alex.send(
            "POST", "/api/v1/client-metrics",
            json: ["metrics": [metric("client.push_display.duration", 412.5), metric("client.push.placeholder", 2)]])
        #expect(accepted.status == 202)
        #expect(
            try await alex.send("POST", "/api/v1/client-metrics", json: ["metrics": [[String: Any]]()]).status == 202)

        let unknown = try await alex.send(
            "POST", "/api/v1/client-metrics",
            json: ["metrics": [metric("client.push.placeholder"), metric("cpu.load")]])
        #expect(unknown.status == 422)
        #expect(unknown.code == "unknown_metric")
        let tooMany = try await alex.send(
            "POST", "/api/v1/client-metrics",
            json: ["metrics": Array(repeating: metric("client.push.placeholder"), count: 101)])
        #expect(tooMany.status == 422)
        #expect(tooMany.code == "too_many_metrics")
        let negative = try await alex.send(
            "POST", "/api/v1/client-metrics", json: ["metrics": [metric("client.push.placeholder", -1)]])
        #expect(negative.status == 422)
        let wrongType = try await alex.send(
            "POST", "/api/v1/client-metrics", json: ["metrics": [metric("client.push.placeholder", "many")]])
        #expect(wrongType.status == 400)
        #expect(
            try await alex.send(
                "POST", "/api/v1/client-metrics", json: ["metrics": [metric("client.push.placeholder")]],
                token: .some(nil)
            ).status == 401)
    }
}

/// Requests the push tests share.
enum Push {
    /// A registration as registerPush returns it.
    struct Registration {
        let id: String
        let previewToken: String
    }

    /// A valid registerPush body.
    static func registrationBody(token: String, provider: String = "apns") -> [String: Any] {
        ["provider": provider, "token": token, "environment": "development", "app_id": "com.example.share"]
    }

    /// registerPush, expecting 201.
    static func register(_ client: TestClient, token: String, provider: String = "apns") async throws -> Registration {
        let response = try await client.send(
            "POST", "/api/v1/push/registrations", json: registrationBody(token: token, provider: provider))
        try #require(response.status == 201, "registerPush: \(response.status) \(response.text)")
        #expect(response.headers["cache-control"] == "no-store")
        return Registration(
            id: try #require(response.object["registration_id"] as? String),
            previewToken: try #require(response.object["preview_token"] as? String))
    }

    /// createMessage, expecting 201; returns the message id.
    static func message(_ client: TestClient, in path: String, text: String) async throws -> String {
        let response = try await EventFeed.createMessage(client, in: path, text: text)
        try #require(response.status == 201, "createMessage: \(response.status) \(response.text)")
        let message = try #require(response.object["message"] as? [String: Any])
        return try #require(message["id"] as? String)
    }

    /// getPushPreview with a token (normally the preview token) and the client's proof.
    static func preview(_ client: TestClient, _ token: String, messageID: String) async throws -> TestClient.Response {
        try await client.send(
            "GET", "/api/v1/push/preview?nid=n_test&message_id=\(messageID)", token: .some(token))
    }
}
