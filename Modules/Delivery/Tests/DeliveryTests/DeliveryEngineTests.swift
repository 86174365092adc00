import Delivery
import DeliveryInterface
import HTTPInterface
import MessagesInterface
import ShareCore
import Synchronization
import Testing

/// A sender that answers as it is told, reporting the steps of a share without files.
private struct ScriptedSender: ShareSending {
    let answer: Result<SentMessage, SendError>
    /// Whether the message is asked for before the answer.
    var requestsMessage = true
    /// Called once the message was asked for (a Ctrl-C arrives there).
    var afterRequest: @Sendable () -> Void = {}

    func send(
        _ share: OutgoingShare, progress: (@Sendable (SendProgress) -> Void)?, cancellation: HTTPCancellation?
    ) async throws(SendError) -> SentMessage {
        progress?(.uploaded(index: 0, uploadID: "u1"))
        if requestsMessage {
            progress?(.creatingMessage)
            afterRequest()
        }
        return try answer.get()
    }
}

/// A keeper that records what the engine asked of it.
private final class RecordingKeeper: DeliveryKeeping {
    typealias Failure = Never
    let calls = Mutex<[String]>([])
    let place = DeliveryPlace.outbox
    let unusable: DeliveryRefusal?

    init(unusable: DeliveryRefusal? = nil) { self.unusable = unusable }

    func share() -> KeptShare {
        if let unusable { return .unusable(unusable) }
        return .readable(
            OutgoingShare(
                clientMsgID: UUIDv7(), target: ShareTarget(kind: .thread, id: "t1", displayPath: "General / t1"),
                text: "hi"))
    }
    func uploaded(index: Int, uploadID: String) { record("uploaded \(index) \(uploadID)") }
    func sent(_ message: SentMessage) { record("sent \(message.messageID)") }
    func keep(_ reason: RetryReason, messageRequested: Bool, interrupted: Bool) -> Int64? {
        record("keep requested=\(messageRequested) interrupted=\(interrupted)")
        return 42
    }
    func refuse(_ refusal: DeliveryRefusal) -> DeliveryPlace? {
        record("refuse \(refusal.stage.rawValue) \(refusal.code)")
        return .outbox
    }
    func cancelled(keep: Bool, mayBeOnServer: Bool) -> Bool {
        record("cancelled keep=\(keep) mayBeOnServer=\(mayBeOnServer)")
        return keep
    }
    private func record(_ call: String) { calls.withLock { $0.append(call) } }
    var recorded: [String] { calls.withLock { $0 } }
}

@Suite("the delivery engine: one outcome from the sender's classification, carried out by the keeper")
struct DeliveryEngineTests {
    let message = SentMessage(messageID: "m1", threadID: "t1", channelID: "c1", replayed: false)

    @Test("sent: the upload is kept before the message, then the keeper lets go of the share")
    func sent() async {
        let keeper = RecordingKeeper()
        let outcome = await DeliveryEngine().deliver(
            DeliveryRequest(sender: ScriptedSender(answer: .success(message))), keeping: keeper)
        #expect(outcome == .sent(message))
        #expect(keeper.recorded == ["uploaded 0 u1", "sent m1"])
    }

    @Test("a 503 as the API client classified it: kept where the keeper keeps it, with its next attempt")
    func kept() async {
        let keeper = RecordingKeeper()
        let reason = RetryReason.serverError(status: 503, code: "unavailable")
        let outcome = await DeliveryEngine().deliver(
            DeliveryRequest(sender: ScriptedSender(answer: .failure(.retryable(reason)))), keeping: keeper)
        #expect(outcome == .kept(reason, in: .outbox, nextAttemptAt: 42))
        #expect(keeper.recorded.last == "keep requested=true interrupted=false")
    }

    @Test("a refusal names the stage the send had reached and where the share is kept")
    func refused() async {
        for (requests, stage) in [(true, DeliveryStage.message), (false, .upload)] {
            let keeper = RecordingKeeper()
            let sender = ScriptedSender(
                answer: .failure(.rejected(code: "write_forbidden", message: "no")), requestsMessage: requests)
            let outcome = await DeliveryEngine().deliver(DeliveryRequest(sender: sender), keeping: keeper)
            #expect(
                outcome
                    == .refused(DeliveryRefusal(stage: stage, code: "write_forbidden", message: "no", keptIn: .outbox)))
        }
    }

    @Test("a share that cannot be read as kept is refused at that stage without a request")
    func unusable() async {
        let refusal = DeliveryRefusal(stage: .keptShare, code: "outbox_file_missing", message: "gone")
        let keeper = RecordingKeeper(unusable: refusal)
        let outcome = await DeliveryEngine().deliver(
            DeliveryRequest(sender: ScriptedSender(answer: .success(message))), keeping: keeper)
        var kept = refusal
        kept.keptIn = .outbox
        #expect(outcome == .refused(kept))
        #expect(keeper.recorded == ["refuse kept_share outbox_file_missing"])
    }

    @Test("cancelled before the message: removed when the request says so")
    func cancelledRemoved() async {
        let keeper = RecordingKeeper()
        let outcome = await DeliveryEngine().deliver(
            DeliveryRequest(
                sender: ScriptedSender(answer: .failure(.cancelled), requestsMessage: false), keepsOnCancel: false),
            keeping: keeper)
        #expect(outcome == .cancelled(kept: false, mayBeOnServer: false))
    }

    @Test("Ctrl-C while the message's answer is awaited keeps the share whatever was asked")
    func interruptedAfterRequest() async {
        for answer in [Result<SentMessage, SendError>.failure(.cancelled), .failure(.retryable(.timeout("slow")))] {
            let keeper = RecordingKeeper()
            let interruption = DeliveryInterruption()
            let sender = ScriptedSender(answer: answer, afterRequest: { interruption.interrupt() })
            let outcome = await DeliveryEngine().deliver(
                DeliveryRequest(sender: sender, interruption: interruption, keepsOnCancel: false), keeping: keeper)
            #expect(outcome == .cancelled(kept: true, mayBeOnServer: true))
        }
    }
}
