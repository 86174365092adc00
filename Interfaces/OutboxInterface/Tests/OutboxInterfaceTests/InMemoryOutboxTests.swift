import Foundation
import ShareKitCore
import ShareKitOutboxInterface
import ShareKitOutboxInterfaceTesting
import Testing

/// The fake queue changes states as the real outbox does, and fails where scripted.
@Suite("InMemoryOutbox: claims, state changes and scripted failures")
struct InMemoryOutboxTests {
    static let target = ShareTarget(kind: .thread, id: "t-1", displayPath: "Lab > chat > t")

    func item(due: Int64, created: Int64 = 1_700_000_000_000) -> OutboxItem {
        OutboxItem(
            clientMsgID: UUIDv7(), serverOrigin: "https://chat.example", target: Self.target, text: "hi",
            nextAttemptAt: due, createdAt: created)
    }

    @Test("the item due first is claimed with one more attempt; a sent item is not put back; counts follow")
    func lifecycle() throws {
        let outbox = InMemoryOutbox(filesRoot: NSTemporaryDirectory())
        let late = item(due: 2_000_000_000_000)
        let early = item(due: 1_700_000_000_500)
        #expect(try outbox.enqueue([late, early, early]) == [true, true, false])
        #expect(try outbox.nextDue(now: 1_700_000_000_000) == nil)
        let claimed = try #require(try outbox.nextDue(now: 1_800_000_000_000))
        #expect(claimed.clientMsgID == early.clientMsgID && claimed.state == .sending && claimed.attempts == 1)
        #expect(try outbox.counts() == OutboxCounts(pending: 1, sending: 1, nextDueAt: late.nextAttemptAt))
        try outbox.markSent(early.clientMsgID, messageID: "m-1", replayed: false, now: 1_800_000_000_001)
        try outbox.markRetry(early.clientMsgID, reason: "late", nextAttemptAt: 0, now: 1_800_000_000_002)
        #expect(try outbox.item(early.clientMsgID)?.state == .sent)
        #expect(try outbox.item(early.clientMsgID)?.messageID == "m-1")
        let unknown = UUIDv7()
        #expect(throws: OutboxError.notFound(unknown)) {
            try outbox.markFailed(unknown, code: "x", message: "y", now: 0)
        }
    }

    @Test("a claim older than the lease is released and due again; makeAllDue makes waiting items due")
    func releaseAndMakeDue() throws {
        let outbox = InMemoryOutbox(filesRoot: NSTemporaryDirectory())
        let one = item(due: 1_700_000_000_000)
        let two = item(due: 1_900_000_000_000)
        try outbox.enqueue([one, two])
        _ = try outbox.nextDue(now: 1_700_000_000_100)
        #expect(try outbox.releaseClaims(claimedBefore: 1_700_000_000_099, now: 1_700_000_000_200) == 0)
        #expect(try outbox.releaseClaims(claimedBefore: 1_700_000_000_100, now: 1_700_000_000_200) == 1)
        #expect(try outbox.item(one.clientMsgID)?.state == .pending)
        #expect(try outbox.makeAllDue(now: 1_700_000_000_300) == 1)
        #expect(try outbox.list(states: [.pending]).allSatisfy { $0.nextAttemptAt <= 1_700_000_000_300 })
    }

    @Test("a scripted failure is thrown by the next call of its operation only")
    func scriptedFailure() throws {
        let outbox = InMemoryOutbox(filesRoot: NSTemporaryDirectory())
        let one = item(due: 0)
        try outbox.enqueue(one)
        outbox.fail(.markSent, with: .storage("disk I/O error"))
        #expect(throws: OutboxError.storage("disk I/O error")) {
            try outbox.markSent(one.clientMsgID, messageID: "m", replayed: false, now: 1)
        }
        try outbox.markSent(one.clientMsgID, messageID: "m", replayed: false, now: 1)
        #expect(try outbox.item(one.clientMsgID)?.state == .sent)
    }
}
