import Delivery
import DeliveryInterface
import HTTPInterface
import MessagesInterface
import ServerAPIInterface
import ShareCore
import Synchronization
import Testing
import UploadsInterface

/// A server that answers as it is told: the share's one file uploads as
/// `u1` (or fails so), then the message request answers `answer`.
private struct ScriptedServer: FileUploading, MessageCreating {
    let answer: Result<SentMessage, APIError>
    /// The upload's failure; nil uploads the file.
    var uploadFailure: APIError? = nil
    /// Called once the message was asked for (a Ctrl-C arrives there).
    var afterRequest: @Sendable () -> Void = {}

    var server: DeliveryServer {
        DeliveryServer(
            uploader: self, messages: self, limits: MessageLimits(messageMaxAttachments: 5, fileMaxUploadBytes: 1000))
    }

    func upload(
        _ source: UploadSource, limits: UploadLimits, budget: Duration?,
        progress: (@Sendable (UploadProgress) -> Void)?, cancellation: HTTPCancellation?
    ) async throws(APIError) -> CompletedUpload {
        if let uploadFailure { throw uploadFailure }
        return CompletedUpload(uploadID: "u1", sha256: "")
    }

    func createMessage(
        in target: ShareTarget, clientMsgID: UUIDv7, text: String, uploadIDs: [String],
        cancellation: HTTPCancellation?
    ) async throws(APIError) -> SentMessage {
        afterRequest()
        return try answer.get()
    }

    func createThread(
        inChannel channelID: String, title: String, clientMsgID: UUIDv7, text: String, uploadIDs: [String],
        cancellation: HTTPCancellation?
    ) async throws(APIError) -> SentMessage {
        afterRequest()
        return try answer.get()
    }

    func instanceLimits(cancellation: HTTPCancellation?) async throws(APIError) -> InstanceLimits {
        throw .cancelled
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
                text: "hi",
                attachments: [
                    UploadSource(
                        identity: UploadFileIdentity(path: "/nowhere/a.txt", size: 3, modificationTimeNanoseconds: 0),
                        fileName: "a.txt", contentType: "text/plain")
                ]))
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

@Suite("the delivery engine: one outcome from the API client's classification, carried out by the keeper")
struct DeliveryEngineTests {
    let message = SentMessage(messageID: "m1", threadID: "t1", channelID: "c1", replayed: false)

    @Test("sent: the upload is kept before the message, then the keeper lets go of the share")
    func sent() async {
        let keeper = RecordingKeeper()
        let outcome = await DeliveryEngine().deliver(
            DeliveryRequest(server: ScriptedServer(answer: .success(message)).server), keeping: keeper)
        #expect(outcome == .sent(message))
        #expect(keeper.recorded == ["uploaded 0 u1", "sent m1"])
    }

    @Test("a 503 as the API client classified it: kept where the keeper keeps it, with its next attempt")
    func kept() async {
        let keeper = RecordingKeeper()
        let reason = RetryReason.serverError(status: 503, code: "unavailable")
        let answer = APIError.retryable(
            APIRetry(kind: .status(503, code: "unavailable"), message: "createMessage answered 503 unavailable"))
        let outcome = await DeliveryEngine().deliver(
            DeliveryRequest(server: ScriptedServer(answer: .failure(answer)).server), keeping: keeper)
        #expect(outcome == .kept(reason, in: .outbox, nextAttemptAt: 42))
        #expect(keeper.recorded.last == "keep requested=true interrupted=false")
    }

    @Test("a refusal names the stage the send had reached and where the share is kept")
    func refused() async {
        let server = APIError.refused(
            APIRefusal(operation: "createMessage", status: 403, code: "write_forbidden", message: "no"))
        let atMessage = ScriptedServer(answer: .failure(server))
        let atUpload = ScriptedServer(
            answer: .success(message),
            uploadFailure: .refused(
                APIRefusal(operation: "createUpload", status: 403, code: "write_forbidden", message: "no")))
        let messages = [
            MessagesText.refusalMessage(status: 403, code: "write_forbidden", detail: "no"),
            MessagesText.table.text(.uploadRefused, ["file": "a.txt", "reason": "createUpload: no"], in: .english),
        ]
        for (scripted, stage, words) in [
            (atMessage, DeliveryStage.message, messages[0]), (atUpload, .upload, messages[1]),
        ] {
            let keeper = RecordingKeeper()
            let outcome = await DeliveryEngine().deliver(DeliveryRequest(server: scripted.server), keeping: keeper)
            #expect(
                outcome
                    == .refused(DeliveryRefusal(stage: stage, code: "write_forbidden", message: words, keptIn: .outbox))
            )
        }
    }

    @Test("a share that cannot be read as kept is refused at that stage without a request")
    func unusable() async {
        let refusal = DeliveryRefusal(stage: .keptShare, code: "outbox_file_missing", message: "gone")
        let keeper = RecordingKeeper(unusable: refusal)
        let outcome = await DeliveryEngine().deliver(
            DeliveryRequest(server: ScriptedServer(answer: .success(message)).server), keeping: keeper)
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
                server: ScriptedServer(answer: .success(message), uploadFailure: .cancelled).server,
                keepsOnCancel: false),
            keeping: keeper)
        #expect(outcome == .cancelled(kept: false, mayBeOnServer: false))
    }

    @Test("Ctrl-C while the message's answer is awaited keeps the share whatever was asked")
    func interruptedAfterRequest() async {
        let slow = APIError.retryable(APIRetry(kind: .timeout, message: "slow"))
        for answer in [Result<SentMessage, APIError>.failure(.cancelled), .failure(slow)] {
            let keeper = RecordingKeeper()
            let interruption = DeliveryInterruption()
            let scripted = ScriptedServer(answer: answer, afterRequest: { interruption.interrupt() })
            let outcome = await DeliveryEngine().deliver(
                DeliveryRequest(server: scripted.server, interruption: interruption, keepsOnCancel: false),
                keeping: keeper)
            #expect(outcome == .cancelled(kept: true, mayBeOnServer: true))
        }
    }

    @Test("a failed request outside a delivery (share-daemon's limits) is told in the engine's one reading")
    func textOfAFailure() {
        let unavailable = APIError.retryable(
            APIRetry(
                kind: .status(503, code: "storage_unavailable"), message: "getInstanceLimits answered 503",
                retryAfter: .seconds(7)))
        #expect(
            DeliveryEngine.text(of: unavailable).english
                == "Not sent yet: the server had a problem (503 storage_unavailable); it asked to wait 7 seconds. "
                + "It will be sent again later.")
        let forbidden = APIError.refused(
            APIRefusal(operation: "getInstanceLimits", status: 403, code: "write_forbidden", message: "read only"))
        #expect(DeliveryEngine.text(of: forbidden).english == "Not sent: you can no longer write here. read only")
        #expect(DeliveryEngine.text(of: .cancelled).english == "Sending was cancelled.")
    }
}
