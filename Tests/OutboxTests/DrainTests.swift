import Foundation
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitCore
import ShareKitCoreTesting
import ShareKitDeliveryInterface
import ShareKitHTTPInterface
import ShareKitHTTPInterfaceTesting
import ShareKitHTTPTypes
import ShareKitMessages
import ShareKitMessagesInterface
import ShareKitOutbox
import ShareKitOutboxInterface
import ShareKitSQLInterface
import ShareKitSQLiteStore
import ShareKitServerAPI
import ShareKitSessionsInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import ShareKitUploads
import ShareKitUploadsInterface
import Synchronization
import Testing

/// The drainer against a real `share-server`: exactly once, backoff,
/// rejections kept visible.
@Suite("outbox: draining through the delivery engine, exactly once")
struct DrainTests {
    @Test("each due item is sent once, the files go, a second pass sends nothing")
    func sendsEachOnce() async throws {
        let fixture = try await OutboxFixture()
        defer { fixture.close() }
        let items = [
            try fixture.enqueue("first"), try fixture.enqueue("with a file", files: [("a.bin", 40_000)]),
            try fixture.enqueue("two files", files: [("b.bin", 100), ("c.bin", 20_000)]),
        ]
        let targets = Collector<String>()
        let report = try await fixture.drainer(sentCallback: { item, _ in targets.append(item.target.id) })
            .drainOnce()
        #expect(report.sent == 3 && report.retried == 0 && report.failed == 0 && report.nextDueAt == nil)
        #expect(targets.all == ["t-1", "t-1", "t-1"])
        let counts = try await fixture.serverCounts()
        #expect(items.allSatisfy { counts[$0.clientMsgID.description] == 1 }, "\(counts)")
        for item in items {
            let stored = try #require(try fixture.outbox.item(item.clientMsgID))
            #expect(stored.state == .sent && stored.messageID != nil && stored.attempts == 1)
            for attachment in item.attachments {
                #expect(!FileManager.default.fileExists(atPath: attachment.storedPath))
            }
        }
        let again = try await fixture.drainer().drainOnce()
        #expect(again.sent == 0)
        #expect(try await fixture.serverCounts() == counts)
        #expect(try fixture.outbox.counts() == OutboxCounts(sent: 3))
    }

    @Test("records out of range (attempts 2^63 - 1, times, sizes, a file elsewhere) are refused, the rest is sent")
    func outOfRangeRecordsAreRefused() async throws {
        let fixture = try await OutboxFixture()
        defer { fixture.close() }
        let good = try fixture.enqueue("good")
        let bad = try (0..<6).map { _ in try fixture.enqueue("bad", files: [("a.bin", 10)]) }
        let changes: [(String, String, SQLValue)] = [
            ("attempts", "attempts = ?", .integer(Int64.max)),
            ("attempts", "attempts = ?", .integer(-3)),
            ("next_attempt_at", "next_attempt_at = ?", .integer(Int64.min)),
            ("updated_at", "updated_at = ?", .integer(Int64.max)),
            ("attachments.0.size", "attachments = json_set(attachments, '$[0].size', ?)", .integer(-1)),
            ("stored_path", "attachments = json_set(attachments, '$[0].stored_path', ?)", .text("/etc/passwd")),
        ]
        for (item, (_, assignment, value)) in zip(bad, changes) {
            try fixture.database.execute(
                "UPDATE outbox SET \(assignment) WHERE client_msg_id = ?", [value, .text(item.clientMsgID.description)])
        }
        // Listing never traps: each bad record shows as refused, its field named.
        let listed = try fixture.outbox.list(states: [.pending, .sending, .failed])
        for (item, (field, _, _)) in zip(bad, changes) {
            let shown = try #require(listed.first { $0.clientMsgID == item.clientMsgID })
            #expect(shown.state == .failed && shown.failureCode == OutboxItem.invalidRecordCode)
            #expect(shown.lastError?.contains(field) == true, "\(shown.lastError ?? "no reason")")
            #expect(shown.attachments.isEmpty && OutboxItem.timeRange.contains(shown.nextAttemptAt))
        }
        // The drain claims past them and sends the good one only.
        let report = try await fixture.drainer().drainOnce()
        #expect(report.sent == 1, "\(report)")
        #expect(try await fixture.serverCounts() == [good.clientMsgID.description: 1])
        #expect(try fixture.outbox.counts() == OutboxCounts(sent: 1, failed: bad.count))
        #expect(try fixture.outbox.refuseInvalidRecords(now: fixture.clock.milliseconds).isEmpty)
        // Attempts count up to the top of their range, never past it.
        let busy = try fixture.enqueue("busy")
        try fixture.database.execute(
            "UPDATE outbox SET attempts = ? WHERE client_msg_id = ?",
            [.integer(Int64(OutboxItem.attemptsRange.upperBound)), .text(busy.clientMsgID.description)])
        let claimed = try #require(try fixture.outbox.nextDue(now: fixture.clock.milliseconds))
        #expect(claimed.attempts == OutboxItem.attemptsRange.upperBound)
    }

    @Test("two drainers of one item: the one whose claim went stale cannot turn a sent share into failed or pending")
    func sentIsFinal() async throws {
        let fixture = try await OutboxFixture()
        defer { fixture.close() }
        let item = try fixture.enqueue("held by two drainers", files: [("a.bin", 4_000)])
        // Drainer B claims the item, and its send outlasts the lease: the
        // claim is released and drainer A sends the share.
        let now = fixture.clock.milliseconds
        let stale = try #require(try fixture.outbox.nextDue(now: now))
        #expect(try fixture.outbox.releaseClaims(claimedBefore: now, now: now) == 1)
        #expect(try await fixture.drainer().drainOnce().sent == 1)
        let sent = try #require(try fixture.outbox.item(item.clientMsgID))
        #expect(sent.state == .sent)
        // B then finds the item's files gone (A removed them) and refuses
        // it, or keeps it for a retry: neither may change what A recorded.
        try fixture.outbox.markFailed(
            stale.clientMsgID, code: "outbox_file_missing", message: "the file is gone", now: now + 2)
        try fixture.outbox.markRetry(stale.clientMsgID, reason: "timeout", nextAttemptAt: now + 3, now: now + 2)
        let after = try #require(try fixture.outbox.item(item.clientMsgID))
        #expect(after.state == .sent && after.messageID == sent.messageID && after.failureCode == nil)
        #expect(try fixture.outbox.counts() == OutboxCounts(sent: 1))
        #expect(try await fixture.serverCounts()[item.clientMsgID.description] == 1)
        // An item that does not exist is still an error.
        #expect(throws: OutboxError.self) {
            try fixture.outbox.markFailed(UUIDv7(), code: "x", message: "y", now: now)
        }
    }

    @Test("an item the server already holds is completed by the replay")
    func replayCompletes() async throws {
        let fixture = try await OutboxFixture()
        defer { fixture.close() }
        let item = try fixture.enqueue("delivered before the takeover")
        let first = try await fixture.sender().messages.createMessage(
            in: item.target, clientMsgID: item.clientMsgID, text: item.text, uploadIDs: [], cancellation: nil)
        let report = try await fixture.drainer().drainOnce()
        #expect(report.sent == 1 && report.replayed == 1)
        let stored = try #require(try fixture.outbox.item(item.clientMsgID))
        #expect(stored.state == .sent && stored.replayed && stored.messageID == first.messageID)
        #expect(try await fixture.serverCounts()[item.clientMsgID.description] == 1)
    }

    @Test("server stopped: pending with backoff and the reason; server back: sent once")
    func retryAfterServerDown() async throws {
        let fixture = try await OutboxFixture()
        defer { fixture.close() }
        let item = try fixture.enqueue("survives an outage", files: [("d.bin", 30_000)])
        fixture.stopServer()
        let start = fixture.clock.milliseconds
        let down = try await fixture.drainer().drainOnce()
        #expect(down.sent == 0 && down.retried == 1)
        let waiting = try #require(try fixture.outbox.item(item.clientMsgID))
        #expect(waiting.state == .pending && waiting.attempts == 1)
        // The reason is kept (its words depend on how the connection failed).
        #expect(waiting.lastError?.isEmpty == false)
        // The first retry waits the base delay (the test's jitter picks the ceiling).
        #expect(waiting.nextAttemptAt == start + 1000 && down.nextDueAt == waiting.nextAttemptAt)
        #expect(FileManager.default.fileExists(atPath: item.attachments[0].storedPath))

        let early = try await fixture.drainer().drainOnce()
        #expect(early.sent == 0 && early.retried == 0, "not due before its backoff")
        fixture.clock.advance(toMilliseconds: waiting.nextAttemptAt)
        let stillDown = try await fixture.drainer().drainOnce()
        let second = try #require(try fixture.outbox.item(item.clientMsgID))
        #expect(stillDown.retried == 1 && second.nextAttemptAt == waiting.nextAttemptAt + 2000, "doubled")

        try fixture.restartServer()
        fixture.clock.advance(toMilliseconds: second.nextAttemptAt)
        let back = try await fixture.drainer().drainOnce()
        #expect(back.sent == 1 && back.retried == 0)
        #expect(try await fixture.serverCounts()[item.clientMsgID.description] == 1)
        #expect(try fixture.outbox.item(item.clientMsgID)?.state == .sent)
    }

    @Test(
        "createMessage answered 503 with Retry-After: 7: the next attempt is 7 s away, not the backoff's 1 s; then sent once"
    )
    func retryAfterOnCreateMessage() async throws {
        let fixture = try await OutboxFixture()
        defer { fixture.close() }
        let item = try fixture.enqueue("the server asks to wait")
        let connection = fixture.sandbox.connection
        let busy = busyOnce(connection.signed, pathSuffix: "/messages", retryAfter: "7")
        let sender = DeliveryServer(
            uploader: connection.uploader(.parent, recordsDirectory: fixture.home.file("records")),
            messages: MessageClient(
                api: AuthorizedClient(origin: fixture.origin, client: busy, tokens: connection.provider(.parent))),
            limits: OutboxFixture.limits)
        let start = fixture.clock.milliseconds
        let first = try await fixture.drainer(sender: sender).drainOnce()
        #expect(first.retried == 1 && first.sent == 0)
        let waiting = try #require(try fixture.outbox.item(item.clientMsgID))
        #expect(waiting.nextAttemptAt == start + 7000, "the server's 7 s, above the backoff's 1 s")
        #expect(waiting.lastError?.contains("7 seconds") == true)
        fixture.clock.advance(toMilliseconds: start + 6999)
        #expect(try await fixture.drainer(sender: sender).drainOnce().sent == 0, "not before the server's wait")
        fixture.clock.advance(toMilliseconds: waiting.nextAttemptAt)
        #expect(try await fixture.drainer(sender: sender).drainOnce().sent == 1)
        #expect(try await fixture.serverCounts()[item.clientMsgID.description] == 1)
    }

    @Test("makeAllDue: a send waiting on its backoff goes at once; sent and failed items stay as they are")
    func makeAllDueForgetsBackoff() async throws {
        let fixture = try await OutboxFixture()
        defer { fixture.close() }
        let waiting = try fixture.enqueue("waits five minutes")
        let refused = try fixture.enqueue("refused")
        let now = fixture.clock.milliseconds
        #expect(try fixture.outbox.nextDue(now: now)?.clientMsgID == waiting.clientMsgID)
        try fixture.outbox.markRetry(waiting.clientMsgID, reason: "down", nextAttemptAt: now + 300_000, now: now)
        #expect(try fixture.outbox.nextDue(now: now)?.clientMsgID == refused.clientMsgID)
        try fixture.outbox.markFailed(refused.clientMsgID, code: "write_forbidden", message: "no", now: now)

        #expect(try await fixture.drainer().drainOnce().sent == 0, "nothing due")
        #expect(try fixture.outbox.makeAllDue(now: now) == 1)
        #expect(try fixture.outbox.makeAllDue(now: now) == 0, "already due")
        #expect(try await fixture.drainer().drainOnce().sent == 1)
        #expect(try await fixture.serverCounts()[waiting.clientMsgID.description] == 1)
        #expect(try fixture.outbox.item(refused.clientMsgID)?.state == .failed)
    }

    @Test("write permission revoked: failed with the server's reason, kept with its files")
    func rejectedKeptVisible() async throws {
        let fixture = try await OutboxFixture()
        defer { fixture.close() }
        let item = try fixture.enqueue("not allowed any more", files: [("e.bin", 100)])
        let revoked = try fixture.sandbox.server.admin(["revoke-write", "--user", "alex", "--channel", "c-chat"])
        #expect(revoked.status == 0, "\(revoked)")
        let report = try await fixture.drainer().drainOnce()
        #expect(report.failed == 1 && report.sent == 0 && report.retried == 0)
        let failed = try fixture.outbox.list(states: [.failed])
        #expect(failed.map(\.clientMsgID) == [item.clientMsgID])
        #expect(failed.first?.failureCode == "write_forbidden" && failed.first?.lastError?.isEmpty == false)
        #expect(FileManager.default.fileExists(atPath: item.attachments[0].storedPath))
        #expect(try fixture.outbox.counts() == OutboxCounts(failed: 1))
        #expect(try await fixture.drainer().drainOnce().failed == 0, "a failed item is not tried again")
    }

    @Test("a claim left by a dead drainer is released after its lease and the item is sent once")
    func staleClaimReleased() async throws {
        let fixture = try await OutboxFixture()
        defer { fixture.close() }
        let item = try fixture.enqueue("claimed, then the drainer died")
        let claimed = try #require(try fixture.outbox.nextDue(now: fixture.clock.milliseconds))
        #expect(claimed.clientMsgID == item.clientMsgID && claimed.state == .sending)
        #expect(try fixture.outbox.nextDue(now: fixture.clock.milliseconds) == nil, "claimed once")
        let within = try await fixture.drainer(lease: .seconds(60)).drainOnce()
        #expect(within.releasedClaims == 0 && within.sent == 0)
        fixture.clock.advance(toMilliseconds: fixture.clock.milliseconds + 60_000)
        let after = try await fixture.drainer(lease: .seconds(60)).drainOnce()
        #expect(after.releasedClaims == 1 && after.sent == 1)
        #expect(try await fixture.serverCounts()[item.clientMsgID.description] == 1)
    }

    @Test("upload ids are kept as they complete, and a resend attaches them")
    func uploadIDsKept() async throws {
        let fixture = try await OutboxFixture()
        defer { fixture.close() }
        let item = try fixture.enqueue("two files", files: [("f.bin", 20_000), ("g.bin", 100)])
        // The first attempt completes the first upload, then the server is gone.
        // A budget of minutes, not the default 25 s: in the end-to-end phase on
        // a loaded 2-core machine this task once waited that long for a thread.
        let upload = try await fixture.sandbox.connection.uploader(.parent, recordsDirectory: fixture.home.file("r"))
            .upload(
                try OutboxDrainer.outgoing(item).attachments[0], limits: .init(fileMaxUploadBytes: .max),
                budget: .seconds(600),
                progress: nil, cancellation: nil)
        try fixture.outbox.recordUploaded(item.clientMsgID, index: 0, uploadID: upload.uploadID, now: 1)
        let events = Collector<DrainEvent>()
        let report = try await fixture.drainer(observer: { events.append($0) }).drainOnce()
        #expect(report.sent == 1)
        let uploaded = events.all.compactMap { event -> Int? in
            if case .uploaded(_, let index, _) = event { return index }
            return nil
        }
        #expect(uploaded == [1], "only the second file is uploaded again")
        let message = try await fixture.messages().first { $0["client_msg_id"] as? String == "\(item.clientMsgID)" }
        let ids = (message?["attachments"] as? [[String: Any]])?.compactMap { $0["upload_id"] as? String }
        #expect(ids?.first == upload.uploadID, "\(String(describing: message))")
    }
}

/// Collects values from callbacks on any thread.
final class Collector<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}

/// A signing client that answers the first request whose path ends with
/// `pathSuffix` itself, with `503` and a `Retry-After`, and passes every
/// other request to the real client.
func busyOnce(_ inner: any DPoPSigningHTTPClient, pathSuffix: String, retryAfter: String) -> ScriptedHTTPClient {
    let client = ScriptedHTTPClient(whenExhausted: .passThrough(inner))
    let body = #"{"type":"about:blank","status":503,"code":"storage_unavailable","title":"Busy"}"#
    client.answer(urlSuffix: pathSuffix, with: [.raw(503, body, headers: ["Retry-After": retryAfter])])
    return client
}
