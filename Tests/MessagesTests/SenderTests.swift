import Foundation
import ShareKitCore
import ShareKitHTTPInterfaceTesting
import ShareKitMessages
import ShareKitMessagesInterface
import ShareKitSessions
import ShareKitSessionsInterface
import ShareKitSessionsInterfaceTesting
import ShareKitSystemTesting
import ShareKitTestSupport
import ShareKitUploadsInterface
import Testing

/// The delivery engine against a real `share-server` over loopback.
@Suite("messages: the delivery engine, uploads then the message, every failure read as the API client classified it")
struct SenderTests {
    static let thread = ShareTarget(kind: .thread, id: "t-1", displayPath: "Space / chat / First thread")
    static let channel = ShareTarget(kind: .channel, id: "c-chat", displayPath: "Space / chat")
    static let forum = ShareTarget(kind: .newPost, id: "c-forum", displayPath: "Space / forum")

    @Test("text to a thread")
    func textToThread() async throws {
        let fixture = try await MessageFixture()
        defer { fixture.close() }
        let id = UUIDv7()
        let sent = try await fixture.sender().send(
            OutgoingShare(clientMsgID: id, target: Self.thread, text: "hello thread"), progress: nil,
            cancellation: nil)
        #expect(sent.threadID == "t-1" && sent.channelID == "c-chat" && !sent.replayed)
        let listed = try await fixture.messages(thread: "t-1")
        #expect(listed.contains { $0["id"] as? String == sent.messageID && $0["text"] as? String == "hello thread" })
        #expect(listed.contains { $0["client_msg_id"] as? String == id.description })
    }

    @Test("two files to a channel: their SHA-256 on the server are the files'")
    func twoFilesToChannel() async throws {
        let fixture = try await MessageFixture()
        defer { fixture.close() }
        let a = try fixture.file("a.bin", size: 40_000, seed: 1)
        let b = try fixture.file("b.bin", size: 1234, seed: 2)
        let progress = Collector<SendProgress>()
        let sent = try await fixture.sender().send(
            OutgoingShare(clientMsgID: UUIDv7(), target: Self.channel, text: "two files", attachments: [a, b]),
            progress: { progress.append($0) }, cancellation: nil)
        #expect(sent.threadID == nil && sent.channelID == "c-chat")
        #expect(sent.attachments.map(\.sha256) == [try fixture.sha256(of: a), try fixture.sha256(of: b)])
        #expect(sent.attachments.map(\.size) == [40_000, 1234])
        #expect(progress.all.last == .creatingMessage)
        let listed = try await fixture.messages(channel: "c-chat")
        let message = listed.first { $0["id"] as? String == sent.messageID }
        let sums = (message?["attachments"] as? [[String: Any]])?.compactMap { $0["sha256"] as? String }
        #expect(sums == [try fixture.sha256(of: a), try fixture.sha256(of: b)])
        let log = fixture.stopServer()
        #expect(log.components(separatedBy: "POST /api/v1/uploads ").count - 1 == 2, "\(log)")
    }

    @Test("a new post in a forum: createThread with the first message")
    func newPost() async throws {
        let fixture = try await MessageFixture()
        defer { fixture.close() }
        let sent = try await fixture.sender().send(
            OutgoingShare(clientMsgID: UUIDv7(), target: Self.forum, text: "first words", title: "A new post"),
            progress: nil, cancellation: nil)
        let threadID = try #require(sent.threadID)
        #expect(sent.channelID == "c-forum" && !sent.replayed)
        let listed = try await fixture.messages(thread: threadID)
        #expect(listed.map { $0["id"] as? String } == [sent.messageID])
    }

    @Test("the same client_msg_id again is success, replayed, and one message on the server")
    func replay() async throws {
        let fixture = try await MessageFixture()
        defer { fixture.close() }
        let share = OutgoingShare(clientMsgID: UUIDv7(), target: Self.thread, text: "only once")
        let first = try await fixture.sender().send(share, progress: nil, cancellation: nil)
        let second = try await fixture.sender().send(share, progress: nil, cancellation: nil)
        #expect(!first.replayed && second.replayed)
        #expect(first.messageID == second.messageID)
        let listed = try await fixture.messages(thread: "t-1")
        #expect(listed.filter { $0["text"] as? String == "only once" }.count == 1)
    }

    @Test("the same client_msg_id with another text is rejected client_msg_id_conflict")
    func conflict() async throws {
        let fixture = try await MessageFixture()
        defer { fixture.close() }
        let id = UUIDv7()
        _ = try await fixture.sender().send(
            OutgoingShare(clientMsgID: id, target: Self.thread, text: "one"), progress: nil, cancellation: nil)
        let error = await sendError {
            () async throws(SendFailure) -> SentMessage in
            try await fixture.sender().send(
                OutgoingShare(clientMsgID: id, target: Self.thread, text: "two"), progress: nil, cancellation: nil)
        }
        guard case .rejected(let code, let message)? = error else {
            Issue.record("expected a rejection, got \(String(describing: error))")
            return
        }
        #expect(code == "client_msg_id_conflict")
        #expect(message.contains("same id"), "\(message)")
    }

    @Test("too many attachments are refused before any request, naming the limit")
    func tooManyAttachments() async throws {
        let fixture = try await MessageFixture()
        defer { fixture.close() }
        let files = try (0...MessageFixture.maxAttachments).map {
            try fixture.file("f\($0).bin", size: 100, seed: UInt32($0))
        }
        let error = await sendError {
            () async throws(SendFailure) -> SentMessage in
            try await fixture.sender().send(
                OutgoingShare(clientMsgID: UUIDv7(), target: Self.channel, text: "many", attachments: files),
                progress: nil, cancellation: nil)
        }
        guard case .rejected(let code, let message)? = error else {
            Issue.record("expected a rejection, got \(String(describing: error))")
            return
        }
        #expect(code == "too_many_attachments")
        #expect(message.contains("message_max_attachments") && message.contains("\(MessageFixture.maxAttachments)"))
        let log = fixture.stopServer()
        #expect(!log.contains("POST /api/v1/uploads"), "\(log)")
        #expect(!log.contains("/messages"), "\(log)")
    }

    @Test("403 after admin revoke-write: rejected write_forbidden")
    func writeForbidden() async throws {
        let fixture = try await MessageFixture()
        defer { fixture.close() }
        let result = try fixture.server.admin(["revoke-write", "--user", "alex", "--channel", "c-chat"])
        #expect(result.status == 0, "\(result)")
        let error = await sendError {
            () async throws(SendFailure) -> SentMessage in
            try await fixture.sender().send(
                OutgoingShare(clientMsgID: UUIDv7(), target: Self.thread, text: "denied"), progress: nil,
                cancellation: nil)
        }
        guard case .rejected(let code, let message)? = error else {
            Issue.record("expected a rejection, got \(String(describing: error))")
            return
        }
        #expect(code == "write_forbidden")
        #expect(message.contains("no longer write"), "\(message)")
    }

    @Test("the server stopped: retryable")
    func serverStopped() async throws {
        let fixture = try await MessageFixture()
        defer { fixture.close() }
        let sender = fixture.sender()
        _ = try await fixture.provider(.child).currentAccessToken()
        _ = fixture.stopServer()
        let error = await sendError {
            () async throws(SendFailure) -> SentMessage in
            try await sender.send(
                OutgoingShare(clientMsgID: UUIDv7(), target: Self.thread, text: "nobody home"), progress: nil,
                cancellation: nil)
        }
        #expect(error?.isRetryable == true, "\(String(describing: error))")
    }

    @Test("a new post in a chat channel: rejected not_a_forum")
    func notAForum() async throws {
        let fixture = try await MessageFixture()
        defer { fixture.close() }
        let error = await sendError {
            () async throws(SendFailure) -> SentMessage in
            try await fixture.sender().send(
                OutgoingShare(
                    clientMsgID: UUIDv7(), target: ShareTarget(kind: .newPost, id: "c-chat", displayPath: "chat"),
                    text: "post", title: "Title"), progress: nil, cancellation: nil)
        }
        guard case .rejected(let code, _)? = error else {
            Issue.record("expected a rejection, got \(String(describing: error))")
            return
        }
        #expect(code == "not_a_forum")
    }

    @Test("a resend after a lost answer reuses the completed uploads: replayed, no upload sent again")
    func resendReusesUploads() async throws {
        let fixture = try await MessageFixture()
        defer { fixture.close() }
        let a = try fixture.file("a.bin", size: 20_000, seed: 3)
        let b = try fixture.file("b.bin", size: 300, seed: 4)
        let uploaded = Collector<SendProgress>()
        var share = OutgoingShare(clientMsgID: UUIDv7(), target: Self.channel, text: "again", attachments: [a, b])
        let first = try await fixture.sender().send(share, progress: { uploaded.append($0) }, cancellation: nil)
        for case .uploaded(let index, let uploadID) in uploaded.all { share.completedUploadIDs[index] = uploadID }
        #expect(share.completedUploadIDs.count == 2)
        let second = try await fixture.sender().send(share, progress: nil, cancellation: nil)
        #expect(second.replayed && second.messageID == first.messageID)
        let log = fixture.stopServer()
        #expect(log.components(separatedBy: "POST /api/v1/uploads ").count - 1 == 2, "\(log)")
    }
}
