import Foundation
import ShareKitHTTPInterface
import ShareKitPushPreview
import ShareKitPushPreviewInterface
import ShareKitServerAPIInterface
import ShareKitServerAPIInterfaceTesting
import Testing

/// A push payload is hostile input: what the notifier keeps of it.
@Suite("PushPayloadParser: required members, cut texts, dropped numbers")
struct PushPayloadParserTests {
    static func payload(_ b: String, aps: String = #"{"alert":{"title":"New message","body":"hi"}}"#) -> [UInt8] {
        Array(#"{"aps":\#(aps),"b":\#(b)}"#.utf8)
    }

    @Test("a version 1 payload gives its ids and alert; unknown members are ignored")
    func valid() throws {
        let parsed = try PushPayloadParser.parse(
            Self.payload(#"{"v":1,"nid":"n-1","k":"message","i":"chat.example:443","t":"t-1","m":"m-1","x":[1]}"#))
        #expect(parsed.version == 1 && parsed.alert.title == "New message" && parsed.alert.body == "hi")
        #expect(
            parsed.ids
                == PushIDs(nid: "n-1", kind: "message", instance: "chat.example:443", thread: "t-1", message: "m-1"))
    }

    @Test("missing or mistyped required members are named; a newer version keeps no ids; too large is refused")
    func refusals() throws {
        #expect(throws: PushError.missingMember("b")) { _ = try PushPayloadParser.parse(Array(#"{"aps":{}}"#.utf8)) }
        #expect(throws: PushError.invalidMember("b.nid")) {
            _ = try PushPayloadParser.parse(Self.payload(#"{"v":1,"nid":7,"k":"message","i":"x"}"#))
        }
        #expect(throws: PushError.notJSON) { _ = try PushPayloadParser.parse(Array("[1,2".utf8)) }
        #expect(try PushPayloadParser.parse(Self.payload(#"{"v":2,"whatever":true}"#)).ids == nil)
        let huge = Self.payload(
            #"{"v":1,"nid":"n","k":"m","i":"i","pad":"\#(String(repeating: "x", count: PushPayload.maximumSize))"}"#)
        #expect(throws: PushError.tooLarge(limit: PushPayload.maximumSize)) { _ = try PushPayloadParser.parse(huge) }
    }

    @Test(
        "long texts and ids are cut with an ellipsis, a too long message id counts as absent, a wild badge is dropped")
    func cutAndDropped() throws {
        let longBody = String(repeating: "é", count: 3000)
        let longID = String(repeating: "m", count: 300)
        let parsed = try PushPayloadParser.parse(
            Self.payload(
                #"{"v":1,"nid":"\#(longID)","k":"message","i":"i","m":"\#(longID)"}"#,
                aps: #"{"alert":{"body":"\#(longBody)"},"badge":1e30,"sound":"../../etc/passwd"}"#))
        let body = try #require(parsed.alert.body)
        #expect(body.utf8.count <= PushPayloadParser.maxBodyBytes && body.hasSuffix("…"))
        #expect(parsed.ids?.nid.utf8.count ?? 0 <= PushPayloadParser.maxIDBytes)
        #expect(parsed.ids?.message == nil)
        #expect(parsed.alert.badge == nil && parsed.alert.sound == "default")
    }
}

/// The link a notification opens comes from the server: only its own pages.
@Suite("NotificationLink: only links on the registration's origin")
struct NotificationLinkTests {
    @Test("a path or an absolute URL on the origin is opened; anything else is refused")
    func links() {
        let origin = "https://chat.example"
        #expect(NotificationLink.resolve("/web/m/1", origin: origin) == "https://chat.example/web/m/1")
        #expect(
            NotificationLink.resolve("https://chat.example/web/m/1", origin: origin) == "https://chat.example/web/m/1")
        for hostile in [
            "https://evil.example/web", "//evil.example/web", "javascript:alert(1)", "/web/a b", "/web/\"q",
            "/web/%zz", "file:///etc/passwd", "/web/\u{202E}x", "",
        ] {
            #expect(NotificationLink.resolve(hostile, origin: origin) == nil, "\(hostile)")
        }
        #expect(NotificationLink.resolve("/web/m/1", origin: "ftp://chat.example") == nil)
    }
}

/// Registration and previews through the session's API client.
@Suite("PushRegistrar and PreviewClient: requests and answers")
struct PushClientTests {
    static let registration = PushRegistration(
        origin: "https://chat.example", registrationID: "r-1", previewToken: "pt-secret", pushToken: "device-token")

    @Test("register sends the device token and keeps the server's registration; unregistering a gone one succeeds")
    func registrar() async throws {
        let api = ScriptedAPIClient([
            .json(201, #"{"registration_id":"r-9","preview_token":"pt-9"}"#),
            .refused("unregisterPush", status: 404, code: "not_found"),
        ])
        let registrar = PushRegistrar(api: api, sessionID: { "s-1" })
        let made = try await registrar.register(
            pushToken: "device-token", provider: "unifiedpush", environment: "production", appID: "org.example.share")
        #expect(
            made
                == PushRegistration(
                    origin: "https://chat.example", registrationID: "r-9", previewToken: "pt-9",
                    pushToken: "device-token",
                    sessionID: "s-1"))
        #expect(!made.description.contains("pt-9") && !made.description.contains("device-token"))
        let request = try #require(api.requests.first)
        guard case .bytes(let bytes) = request.body else {
            Issue.record("no body")
            return
        }
        let body = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect(body["token"] as? String == "device-token" && body["provider"] as? String == "unifiedpush")
        try await registrar.unregister(registrationID: "r-9")
        #expect(api.requests.last?.path.hasSuffix("/r-9") == true)
    }

    @Test(
        "a preview is read; 404 is not available; 503 and unreadable answers are failures; a passed deadline asks nothing"
    )
    func previews() async {
        let api = ScriptedAPIClient([
            .json(
                200, #"{"mode":"full","sender_name":"Sam","thread_title":null,"channel_name":"chat","excerpt":"hi"}"#),
            .refused("getPushPreview", status: 404, code: "not_found"),
            .unavailable(503),
            .json(200, #"{"mode":"full"}"#),
        ])
        let client = PreviewClient(api: { _ in api })
        let deadline = ContinuousClock.now + .seconds(30)
        let first = await client.fetch(Self.registration, nid: "n-1", messageID: "m-1", deadline: deadline)
        #expect(
            first
                == .content(
                    PushPreviewContent(
                        mode: .full, senderName: "Sam", threadTitle: nil, channelName: "chat", excerpt: "hi",
                        webURL: nil)))
        #expect(await client.fetch(Self.registration, nid: "n", messageID: "m", deadline: deadline) == .notAvailable)
        #expect(
            await client.fetch(Self.registration, nid: "n", messageID: "m", deadline: deadline) == .failed(.status(503))
        )
        #expect(
            await client.fetch(Self.registration, nid: "n", messageID: "m", deadline: deadline)
                == .failed(.invalidResponse))
        let query = api.requests.first?.path ?? ""
        #expect(query.contains("nid=n-1") && query.contains("message_id=m-1"))
        #expect(api.calls.first?.cancellable == true && api.calls.first?.maxResponseBodyBytes != nil)
        let late = await client.fetch(
            Self.registration, nid: "n", messageID: "m", deadline: ContinuousClock.now - .seconds(1))
        #expect(late == .failed(.deadline) && api.calls.count == 4)
    }
}
