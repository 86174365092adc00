import ShareKitCore
import ShareKitDeliveryInterface
import ShareKitDeliveryInterfaceTesting
import ShareKitMessagesInterface
import ShareKitUploadsInterface
import Synchronization
import Testing

/// The fake engine carries out each scripted outcome on the keeper, as the
/// real engine would, and records it.
@Suite("ScriptedDelivery: steps played on the keeper")
struct ScriptedDeliveryTests {
    /// A keeper that records what the engine told it; `failing` makes its storage fail.
    final class RecordingKeeper: DeliveryKeeping {
        struct Failure: Error, Equatable {}
        let kept: KeptShare
        let failing: Bool
        let calls = Mutex<[String]>([])
        init(_ kept: KeptShare, failing: Bool = false) {
            self.kept = kept
            self.failing = failing
        }
        var place: DeliveryPlace { .outbox }
        func share() -> KeptShare { kept }
        func uploaded(index: Int, uploadID: String) { calls.withLock { $0.append("uploaded \(index) \(uploadID)") } }
        func sent(_ message: SentMessage) throws(Failure) {
            if failing { throw Failure() }
            calls.withLock { $0.append("sent \(message.messageID)") }
        }
        func keep(_ reason: RetryReason, messageRequested: Bool, interrupted: Bool) throws(Failure) -> Int64? {
            calls.withLock { $0.append("keep \(messageRequested)") }
            return 42
        }
        func refuse(_ refusal: DeliveryRefusal) throws(Failure) -> DeliveryPlace? {
            calls.withLock { $0.append("refuse \(refusal.code)") }
            return .quarantine
        }
        func cancelled(keep: Bool, mayBeOnServer: Bool) throws(Failure) -> Bool {
            calls.withLock { $0.append("cancelled \(keep)") }
            return keep
        }
    }

    static let share = OutgoingShare(
        clientMsgID: UUIDv7(), target: ShareTarget(kind: .thread, id: "t-1", displayPath: "Lab > chat > t"),
        text: "hi",
        attachments: [
            UploadSource(
                identity: UploadFileIdentity(path: "/tmp/a", size: 3, modificationTimeNanoseconds: 1), fileName: "a",
                contentType: "text/plain"),
            UploadSource(
                identity: UploadFileIdentity(path: "/tmp/b", size: 4, modificationTimeNanoseconds: 1), fileName: "b",
                contentType: "text/plain"),
        ], completedUploadIDs: [0: "done-0"])
    static let request = DeliveryRequest(server: .signedOut("a test"), keepsOnCancel: false)

    @Test("send reports the uploads not yet completed, then sent; the outcome and the delivery are recorded")
    func send() async throws {
        let delivery = ScriptedDelivery([.send(messageID: "m-1", replayed: true)])
        let keeper = RecordingKeeper(.readable(Self.share))
        let outcome = try await delivery.deliver(Self.request, keeping: keeper)
        guard case .sent(let message) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(message.messageID == "m-1" && message.replayed && message.threadID == "t-1")
        #expect(message.attachments.map(\.uploadID) == ["done-0", "upload-1"])
        #expect(keeper.calls.withLock { $0 } == ["uploaded 1 upload-1", "sent m-1"])
        #expect(delivery.deliveries.map(\.outcome) == [outcome])
        #expect(delivery.shares.map(\.clientMsgID) == [Self.share.clientMsgID])
    }

    @Test("keep, refuse and cancel are carried out in order; after the script the share is kept")
    func otherSteps() async throws {
        let refusal = DeliveryRefusal(stage: .message, code: "thread_not_found", message: "gone")
        let delivery = ScriptedDelivery([
            .keep(.rateLimited(retryAfterSeconds: 5), messageRequested: true), .refuse(refusal), .cancel(),
        ])
        let keeper = RecordingKeeper(.readable(Self.share))
        var outcomes: [DeliveryOutcome] = []
        for _ in 0..<4 { outcomes.append(try await delivery.deliver(Self.request, keeping: keeper)) }
        var placed = refusal
        placed.keptIn = .quarantine
        #expect(
            outcomes == [
                .kept(.rateLimited(retryAfterSeconds: 5), in: .outbox, nextAttemptAt: 42), .refused(placed),
                .cancelled(kept: false, mayBeOnServer: false),
                .kept(.noNetwork("the script has no more steps"), in: .outbox, nextAttemptAt: 42),
            ])
        #expect(
            keeper.calls.withLock { $0 } == ["keep true", "refuse thread_not_found", "cancelled false", "keep false"])
    }

    @Test("an unusable share is refused without using a step; a keeper's storage failure is thrown on")
    func unusableAndFailing() async throws {
        let delivery = ScriptedDelivery([.send(messageID: "m-1")])
        let missing = DeliveryRefusal(stage: .keptShare, code: "outbox_file_missing", message: "gone")
        let outcome = try await delivery.deliver(Self.request, keeping: RecordingKeeper(.unusable(missing)))
        #expect(
            outcome
                == .refused(
                    DeliveryRefusal(
                        stage: .keptShare, code: "outbox_file_missing", message: "gone", keptIn: .quarantine)))
        await #expect(throws: RecordingKeeper.Failure()) {
            _ = try await delivery.deliver(Self.request, keeping: RecordingKeeper(.readable(Self.share), failing: true))
        }
        #expect(delivery.deliveries.map(\.step) == [nil, .send(messageID: "m-1")])
        #expect(delivery.deliveries.last?.outcome == nil)
    }
}
