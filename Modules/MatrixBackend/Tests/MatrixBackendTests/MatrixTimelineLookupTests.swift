import ShareKitCore
import ShareKitHTTPInterface
import ShareKitHTTPInterfaceTesting
import ShareKitKeychainInterface
import ShareKitMatrixBackend
import ShareKitMessagesInterface
import ShareKitSessionsInterface
import Testing

/// The takeover's look-up of a share's events in the room's timeline
/// (docs/adr/0037): it pages back past newer messages to the share's own
/// time, and a homeserver's pages cannot keep it reading without end.
@Suite struct MatrixTimelineLookupTests {
    /// One fixed access token: the session is not what these tests are about.
    struct FixedToken: AccessTokenProvider {
        var role: SessionRole { .child }
        func currentAccessToken() async throws(SessionError) -> AccessToken {
            AccessToken(sessionID: "DEVICE", value: SecretValue(utf8: "syt_test"), expiresAt: Int64.max)
        }
        func reportRejected(token: AccessToken) async {}
    }

    static let me = "@alex:localhost"
    static let room = "!room:localhost"

    /// A page of `count` message events by `sender` at `time`, and its `end` token.
    static func page(
        _ count: Int, sender: String = "@sam:localhost", time: UInt64, end: String?,
        share: (id: String, part: Int)? = nil
    ) -> Result<HTTPClientResponse, HTTPClientError> {
        var events: [String] = (0..<count).map {
            #"{"type":"m.room.message","event_id":"$e\#($0)","sender":"\#(sender)","origin_server_ts":\#(time),"content":{"msgtype":"m.text","body":"chatter"}}"#
        }
        if let share {
            events.append(
                #"{"type":"m.room.message","event_id":"$mine","sender":"\#(me)","origin_server_ts":\#(time),"content":{"msgtype":"m.text","body":"hello","org.sharekit.share_id":"\#(share.id)","org.sharekit.part":\#(share.part)}}"#
            )
        }
        let endField = end.map { #","end":"\#($0)""# } ?? ""
        return .json(200, #"{"chunk":[\#(events.joined(separator: ","))],"start":"s"\#(endField)}"#)
    }

    /// Sends "hello" (one part) into the room through a scripted homeserver:
    /// no encryption, whoami, then `pages`, then the send's answer.
    static func send(_ id: UUIDv7, pages: [Result<HTTPClientResponse, HTTPClientError>]) async throws
        -> (SentMessage, ScriptedHTTPClient)
    {
        let client = ScriptedHTTPClient(
            [.json(404, #"{"errcode":"M_NOT_FOUND"}"#), .json(200, #"{"user_id":"\#(me)"}"#)] + pages
                + [.json(200, #"{"event_id":"$sent"}"#)])
        let sender = MatrixMessageClient(
            homeserver: MatrixHomeserver(baseURL: "http://127.0.0.1:1", client: client), tokens: FixedToken())
        let sent = try await sender.createMessage(
            in: ShareTarget(kind: .channel, id: room, displayPath: room), clientMsgID: id, text: "hello",
            uploadIDs: [], cancellation: nil)
        return (sent, client)
    }

    static func timelineReads(_ client: ScriptedHTTPClient) -> Int {
        client.requests.filter { $0.url.contains("/messages?") }.count
    }

    @Test func anEventBehindAPageOfNewerMessagesIsFoundAndNotSentAgain() async throws {
        let id = UUIDv7()
        let now = id.milliseconds
        let (sent, client) = try await Self.send(
            id,
            pages: [
                Self.page(100, time: now + 60_000, end: "t1"),
                Self.page(99, time: now + 1_000, end: "t2", share: (id.description, 0)),
            ])
        #expect(sent.replayed)
        #expect(sent.messageID == "$mine")
        #expect(Self.timelineReads(client) == 2)
        #expect(!client.requests.contains { $0.method == .put }, "sent again")
        #expect(client.requests.last?.url.contains("from=t1") == true)
    }

    @Test func theLookupStopsBeforeTheSharesTimeLessTheSkewAllowance() async throws {
        let id = UUIDv7()
        let before = id.milliseconds - UInt64(MatrixMessageClient.clockSkewAllowance) - 1
        let (sent, client) = try await Self.send(
            id, pages: [Self.page(100, time: id.milliseconds, end: "t1"), Self.page(100, time: before, end: "t2")])
        #expect(!sent.replayed)
        #expect(Self.timelineReads(client) == 2)
        #expect(client.requests.last?.method == .put)
    }

    @Test func aHomeserverThatRepeatsItsTokenOrNeverEndsIsReadABoundedNumberOfPages() async throws {
        let id = UUIDv7()
        let repeating = try await Self.send(
            id,
            pages: [
                Self.page(100, time: id.milliseconds, end: "same"), Self.page(100, time: id.milliseconds, end: "same"),
            ])
        #expect(Self.timelineReads(repeating.1) == 2)
        #expect(repeating.1.requests.last?.method == .put)

        let endless = (0..<MatrixMessageClient.maximumTimelinePages).map {
            Self.page(100, time: id.milliseconds, end: "t\($0)")
        }
        let flooded = try await Self.send(id, pages: endless)
        #expect(Self.timelineReads(flooded.1) == MatrixMessageClient.maximumTimelinePages)
        #expect(flooded.1.requests.last?.method == .put)
    }
}
