import Foundation
import ShareKitCore
import ShareKitHTTPInterface
import ShareKitHTTPTypes
import ShareKitMessages
import ShareKitMessagesInterface
import ShareKitServerAPIInterface
import ShareKitServerAPIInterfaceTesting
import Testing

/// What a team sending messages through ``MessageClient`` sees: the request
/// each target gets, a replay read as success, and the API client's
/// failures passed on unchanged.
@Suite("MessageClient: requests, replays and failures")
struct MessageClientTests {
    static let thread = ShareTarget(kind: .thread, id: "t-1", displayPath: "Space > chat > First thread")
    static let channel = ShareTarget(kind: .channel, id: "c-chat", displayPath: "Space > chat")
    static let forum = ShareTarget(kind: .newPost, id: "c-forum", displayPath: "Space > forum > new post")

    static func envelope(id: String = "m-1", thread: String? = "t-1", channel: String = "c-chat") -> String {
        let threadJSON = thread.map { "\"\($0)\"" } ?? "null"
        return #"{"message":{"id":"\#(id)","client_msg_id":"x","thread_id":\#(threadJSON),"channel_id":"\#(channel)","#
            + #""sender":"alex","text":"hi","created_at":"2026-01-01T00:00:00Z","attachments":[{"upload_id":"u-1","#
            + #""file_name":"a.pdf","content_type":"application/pdf","size":12,"sha256":"\#(String(repeating: "a", count: 64))"}]}}"#
    }

    @Test("a thread gets POST /threads/{id}/messages with the client_msg_id, text and upload ids; 201 is new")
    func toThread() async throws {
        let api = ScriptedAPIClient([.json(201, Self.envelope())])
        let id = UUIDv7()
        let sent = try await MessageClient(api: api).createMessage(
            in: Self.thread, clientMsgID: id, text: "hello", uploadIDs: ["u-1"])
        #expect(sent.messageID == "m-1" && sent.threadID == "t-1" && sent.channelID == "c-chat" && !sent.replayed)
        #expect(sent.attachments.map(\.uploadID) == ["u-1"] && sent.attachments.first?.size == 12)
        let request = try #require(api.requests.first)
        #expect(request.method == .post && request.path == "/api/v1/threads/t-1/messages")
        #expect(request.operation == "createMessage")
        let body = try json(request)
        #expect(body["client_msg_id"] as? String == id.description)
        #expect(body["text"] as? String == "hello")
        #expect(body["attachments"] as? [String] == ["u-1"])
    }

    @Test("a channel gets POST /channels/{id}/messages; a 200 or Idempotent-Replayed answer is a replay")
    func toChannelAndReplay() async throws {
        let api = ScriptedAPIClient([
            .json(200, Self.envelope(thread: nil)),
            .json(201, Self.envelope(thread: nil), headers: ["Idempotent-Replayed": "TRUE"]),
        ])
        let client = MessageClient(api: api)
        let first = try await client.createMessage(in: Self.channel, clientMsgID: UUIDv7(), text: "a", uploadIDs: [])
        let second = try await client.createMessage(in: Self.channel, clientMsgID: UUIDv7(), text: "a", uploadIDs: [])
        #expect(first.replayed && second.replayed && first.threadID == nil)
        #expect(api.requests.map(\.path) == ["/api/v1/channels/c-chat/messages", "/api/v1/channels/c-chat/messages"])
    }

    @Test("a new post is createThread with its title and first_message; createMessage refuses it without a request")
    func newPost() async throws {
        let api = ScriptedAPIClient([.json(201, Self.envelope(thread: "t-new", channel: "c-forum"))])
        let client = MessageClient(api: api)
        do {
            _ = try await client.createMessage(in: Self.forum, clientMsgID: UUIDv7(), text: "x", uploadIDs: [])
            Issue.record("createMessage accepted a new-post target")
        } catch {
            guard case .failed(.invalidRequest) = error else {
                Issue.record("\(error)")
                return
            }
        }
        #expect(api.calls.isEmpty)
        let id = UUIDv7()
        let sent = try await client.createThread(
            inChannel: "c-forum", title: "A new post", clientMsgID: id, text: "first words", uploadIDs: [])
        #expect(sent.threadID == "t-new" && sent.channelID == "c-forum")
        let request = try #require(api.requests.first)
        #expect(request.method == .post && request.path == "/api/v1/channels/c-forum/threads")
        let body = try json(request)
        #expect(body["title"] as? String == "A new post")
        let first = try #require(body["first_message"] as? [String: Any])
        #expect(first["client_msg_id"] as? String == id.description && first["text"] as? String == "first words")
    }

    @Test("the API client's refusal and retryable failure reach the caller unchanged")
    func failuresPassThrough() async {
        let refusal = APIRefusal(operation: "createMessage", status: 404, code: "thread_not_found", message: "gone")
        let retry = APIRetry(kind: .status(503, code: ""), message: "busy", retryAfter: .seconds(30))
        let api = ScriptedAPIClient([.failure(.refused(refusal)), .failure(.retryable(retry))])
        let client = MessageClient(api: api)
        for expected in [APIError.refused(refusal), .retryable(retry)] {
            do {
                _ = try await client.createMessage(in: Self.thread, clientMsgID: UUIDv7(), text: "x", uploadIDs: [])
                Issue.record("no failure")
            } catch {
                #expect(error == expected)
            }
        }
    }

    @Test("instance limits are read; limits out of range are an unreadable, retryable answer")
    func instanceLimits() async throws {
        let api = ScriptedAPIClient([
            .json(
                200,
                #"{"file_max_upload_bytes":1048576,"message_max_attachments":4,"upload_part_size":65536,"#
                    + #""recent_targets":-3,"accepted_content_types":["image/png"]}"#),
            .json(200, #"{"file_max_upload_bytes":0,"message_max_attachments":4}"#),
        ])
        let client = MessageClient(api: api)
        let limits = try await client.instanceLimits()
        #expect(limits.fileMaxUploadBytes == 1_048_576 && limits.messageMaxAttachments == 4)
        #expect(limits.uploadPartSize == 65536 && limits.recentTargets == 0)
        #expect(limits.acceptedContentTypes == ["image/png"])
        #expect(api.requests.first?.path == "/api/v1/instance/limits")
        do {
            _ = try await client.instanceLimits()
            Issue.record("a zero upload limit was accepted")
        } catch {
            guard case .retryable(let retry) = error, case .unreadableAnswer(status: 200) = retry.kind else {
                Issue.record("\(error)")
                return
            }
        }
    }

    private func json(_ request: APIRequest) throws -> [String: Any] {
        guard case .bytes(let bytes) = request.body else { throw CocoaError(.coderInvalidValue) }
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }
}
