import Foundation
import ShareKitCore
import ShareKitDeliveryInterface
import ShareKitDeliveryInterfaceTesting
import ShareKitMessagesInterface
import ShareKitOutbox
import ShareKitOutboxInterface
import ShareKitOutboxInterfaceTesting
import ShareKitSystemTesting
import ShareKitUploadsInterface
import Synchronization
import Testing

/// The daemon's drain pass as its queue shows it: each due item delivered
/// once, sent, kept with its backoff or failed, and a queue that fails
/// stopping the pass.
@Suite("OutboxDrainer: one pass over the due items")
struct OutboxDrainerTests {
    static let start: Int64 = 1_800_000_000_000
    static let target = ShareTarget(kind: .thread, id: "t-1", displayPath: "Lab > chat > plans")

    /// A queue in memory, items' files on disk, a clock the test sets.
    final class Fixture: Sendable {
        let temporary: TemporaryDirectory
        let outbox: InMemoryOutbox
        let now = Mutex<Int64>(OutboxDrainerTests.start)

        init() throws {
            temporary = try TemporaryDirectory(prefix: "sharekit-outbox-module")
            outbox = InMemoryOutbox(filesRoot: temporary.path)
        }

        /// Queues an item with one attachment of `size` bytes in its own folder.
        func enqueue(size: Int = 5, due: Int64 = OutboxDrainerTests.start) throws -> OutboxItem {
            let id = UUIDv7()
            let folder = try outbox.filesDirectory(for: id)
            try Data(repeating: 9, count: size).write(to: URL(fileURLWithPath: folder + "/1-a.bin"))
            let item = OutboxItem(
                clientMsgID: id, serverOrigin: "https://chat.example", target: OutboxDrainerTests.target, text: "hi",
                attachments: [
                    OutboxAttachment(
                        storedPath: folder + "/1-a.bin", fileName: "a.bin", contentType: "text/plain", size: Int64(size)
                    )
                ], nextAttemptAt: due, createdAt: OutboxDrainerTests.start)
            try outbox.enqueue(item)
            return item
        }

        func drainer(_ delivery: ScriptedDelivery) -> OutboxDrainer {
            OutboxDrainer(
                outbox: outbox, delivery: delivery, makeSender: { _ in .signedOut("not needed by the fake") },
                clock: { self.now.withLock { $0 } },
                backoff: BackoffPolicy(base: .seconds(2), cap: .seconds(600), retryAfterCap: .seconds(3600)))
        }
    }

    @Test("a sent item is marked sent with its message and upload; a kept one waits at least the server's Retry-After")
    func sentAndKept() async throws {
        let fixture = try Fixture()
        defer { fixture.temporary.remove() }
        let first = try fixture.enqueue()
        let second = try fixture.enqueue()
        let delivery = ScriptedDelivery([.send(messageID: "m-1"), .keep(.rateLimited(retryAfterSeconds: 120))])
        let report = try await fixture.drainer(delivery).drainOnce()
        #expect(report.sent == 1 && report.retried == 1 && report.failed == 0)
        let sent = try #require(try fixture.outbox.item(first.clientMsgID))
        #expect(sent.state == .sent && sent.messageID == "m-1" && sent.attempts == 1)
        #expect(sent.attachments[0].completedUploadID == "upload-0")
        #expect(!FileManager.default.fileExists(atPath: fixture.temporary.path + "/" + first.clientMsgID.description))
        let kept = try #require(try fixture.outbox.item(second.clientMsgID))
        #expect(kept.state == .pending && kept.attempts == 1 && kept.lastError != nil)
        #expect(kept.nextAttemptAt >= Self.start + 120_000)
        #expect(report.nextDueAt == kept.nextAttemptAt)
        // The engine got the share as it is on disk.
        #expect(delivery.shares.first?.attachments.first?.path == first.attachments[0].storedPath)
        #expect(delivery.shares.first?.attachments.first?.size == 5)
    }

    @Test("a refused item fails with its code; an item whose file changed is refused without a delivery step")
    func refusedAndMissingFile() async throws {
        let fixture = try Fixture()
        defer { fixture.temporary.remove() }
        let refused = try fixture.enqueue()
        let changed = try fixture.enqueue()
        try Data(repeating: 1, count: 2).write(to: URL(fileURLWithPath: changed.attachments[0].storedPath))
        let delivery = ScriptedDelivery([
            .refuse(DeliveryRefusal(stage: .message, code: "thread_not_found", message: "the thread is gone"))
        ])
        let report = try await fixture.drainer(delivery).drainOnce()
        #expect(report.failed == 2 && report.sent == 0)
        let states = try [refused, changed].map { try #require(try fixture.outbox.item($0.clientMsgID)) }
        #expect(states.map(\.state) == [.failed, .failed])
        #expect(Set(states.compactMap(\.failureCode)) == ["thread_not_found", "outbox_file_missing"])
        #expect(delivery.deliveries.compactMap(\.step).count == 1)
    }

    @Test("a claim older than the lease is released and delivered; an item not yet due is left alone")
    func staleClaimAndNotDue() async throws {
        let fixture = try Fixture()
        defer { fixture.temporary.remove() }
        let stale = try fixture.enqueue(due: Self.start - 800_000)
        let later = try fixture.enqueue(due: Self.start + 3_600_000)
        _ = try fixture.outbox.nextDue(now: Self.start - 700_000)  // a daemon that died 700 s ago
        let delivery = ScriptedDelivery([.send(messageID: "m-1")])
        let report = try await fixture.drainer(delivery).drainOnce()
        #expect(report.releasedClaims == 1 && report.sent == 1)
        #expect(try fixture.outbox.item(stale.clientMsgID)?.attempts == 2)
        #expect(try fixture.outbox.item(later.clientMsgID)?.state == .pending)
        #expect(delivery.deliveries.count == 1)
    }

    @Test("a cancelled delivery ends the pass and keeps the item; a failing queue stops the pass with its error")
    func cancelAndStorageFailure() async throws {
        let fixture = try Fixture()
        defer { fixture.temporary.remove() }
        let one = try fixture.enqueue()
        let two = try fixture.enqueue()
        let cancelled = try await fixture.drainer(ScriptedDelivery([.cancel()])).drainOnce()
        #expect(cancelled.sent == 0 && cancelled.retried == 0)
        #expect(try fixture.outbox.list(states: [.pending]).count == 2)

        fixture.outbox.fail(.markSent, with: .storage("disk I/O error"))
        await #expect(throws: OutboxError.storage("disk I/O error")) {
            _ = try await fixture.drainer(ScriptedDelivery([.send(messageID: "m")])).drainOnce()
        }
        // Neither was marked sent: the one claimed waits for its lease to end.
        #expect(try [one, two].compactMap { try fixture.outbox.item($0.clientMsgID)?.state }.contains(.sent) == false)
    }
}
