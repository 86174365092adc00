import ShareKitCore
import ShareKitDeliveryInterface
import ShareKitHTTPInterface
import ShareKitHTTPInterfaceTesting
import ShareKitHTTPTypes
import ShareKitKeychainInterface
import ShareKitMessages
import ShareKitMessagesInterface
import ShareKitServerAPI
import ShareKitServerAPIInterface
import ShareKitSessionsInterface
import ShareKitSessionsInterfaceTesting
import ShareKitSystemTesting
import ShareKitUploadsInterface
import Synchronization
import Testing

/// One scripted outcome of the message transport.
enum Step: Sendable {
    case answer(Int, code: String, headers: [(String, String)] = [])
    case fail(HTTPClientError)
    case created
}

/// The shared scripted client answering `steps` in turn, then `201` with a message.
func scriptedClient(_ steps: [Step]) -> ScriptedHTTPClient {
    let created = #"{"message":{"id":"m1","channel_id":"c1","thread_id":"t1","text":"x","attachments":[]}}"#
    return ScriptedHTTPClient(
        steps.map { step -> Result<HTTPClientResponse, HTTPClientError> in
            switch step {
            case .fail(let error): return .failure(error)
            case .created: return .raw(201, created)
            case .answer(let status, let code, let headers):
                var fields = HTTPFields()
                for (name, value) in headers { fields.set(name, value) }
                let body = #"{"type":"about:blank","status":\#(status),"code":"\#(code)","detail":"Detail \#(code)."}"#
                return .raw(status, body, headers: fields)
            }
        }, whenExhausted: .answer(.raw(201, created)))
}

/// An uploader that fails with a given error, or succeeds, and counts calls.
final class ScriptedUploader: FileUploading {
    private let error: APIError?
    private let count = Mutex(0)
    init(_ error: APIError? = nil) { self.error = error }
    var calls: Int { count.withLock { $0 } }

    func upload(
        _ source: UploadSource, limits: UploadLimits, budget: Duration?,
        progress: (@Sendable (UploadProgress) -> Void)?, cancellation: HTTPCancellation?
    ) async throws(APIError) -> CompletedUpload {
        let n = count.withLock {
            $0 += 1
            return $0
        }
        if let error { throw error }
        return CompletedUpload(uploadID: "u\(n)", sha256: "00")
    }
}

@Suite("messages: each failure class maps to its outcome (scripted transport)")
struct ClassificationTests {
    static let target = ShareTarget(kind: .thread, id: "t1", displayPath: "t1")
    static let limits = MessageLimits(messageMaxAttachments: 2, fileMaxUploadBytes: 1000)

    static func source(_ name: String, size: Int64) -> UploadSource {
        UploadSource(
            identity: UploadFileIdentity(path: "/nonexistent/\(name)", size: size, modificationTimeNanoseconds: 0),
            fileName: name, contentType: "text/plain")
    }

    func send(
        _ steps: [Step], tokens: StubTokenProvider = StubTokenProvider(sessionID: "s"),
        uploader: ScriptedUploader = ScriptedUploader(), attachments: [UploadSource] = []
    ) async -> (Result<SentMessage, SendFailure>, ScriptedHTTPClient) {
        let client = scriptedClient(steps)
        let sender = EngineSender(
            server: DeliveryServer(
                uploader: uploader,
                messages: MessageClient(
                    api: AuthorizedClient(origin: "http://127.0.0.1:9", client: client, tokens: tokens)),
                limits: Self.limits))
        do throws(SendFailure) {
            let sent = try await sender.send(
                OutgoingShare(clientMsgID: UUIDv7(), target: Self.target, text: "hi", attachments: attachments),
                progress: nil, cancellation: nil)
            return (.success(sent), client)
        } catch {
            return (.failure(error), client)
        }
    }

    @Test("429 with Retry-After is retryable with the seconds")
    func rateLimited() async {
        let (result, _) = await send([.answer(429, code: "rate_limited", headers: [("Retry-After", "7")])])
        #expect(result == .failure(.retryable(.rateLimited(retryAfterSeconds: 7))))
    }

    @Test("503 with Retry-After is retryable with the seconds, for the outbox's backoff")
    func serverErrorWithRetryAfter() async {
        let (result, _) = await send([.answer(503, code: "storage_unavailable", headers: [("Retry-After", "7")])])
        #expect(
            result == .failure(.retryable(.serverError(status: 503, code: "storage_unavailable", retryAfterSeconds: 7)))
        )
        if case .failure(.retryable(let reason)) = result { #expect(reason.retryAfterSeconds == 7) }
    }

    @Test("5xx is retryable")
    func serverError() async {
        let (result, _) = await send([.answer(503, code: "unavailable")])
        #expect(result == .failure(.retryable(.serverError(status: 503, code: "unavailable"))))
    }

    @Test(
        "413, 415, 404 and other 4xx are rejected with the server's code and a sentence",
        arguments: [413, 415, 404, 400])
    func rejected(status: Int) async {
        let (result, _) = await send([.answer(status, code: "code_\(status)")])
        guard case .failure(.rejected(let code, let message)) = result else {
            Issue.record("\(result)")
            return
        }
        #expect(code == "code_\(status)")
        #expect(message.contains("Detail code_\(status)."), "\(message)")
    }

    @Test("timeouts and lost connections are retryable")
    func transport() async {
        let (timeout, _) = await send([.fail(.timedOut(.total))])
        guard case .failure(.retryable(.timeout)) = timeout else {
            Issue.record("\(timeout)")
            return
        }
        let (refused, _) = await send([.fail(.cannotConnect("refused"))])
        guard case .failure(.retryable(.noNetwork)) = refused else {
            Issue.record("\(refused)")
            return
        }
    }

    @Test("401 token_expired: reportRejected, then one retry that succeeds")
    func expiredTokenRetriedOnce() async throws {
        let tokens = StubTokenProvider(sessionID: "s")
        let (result, client) = await send([.answer(401, code: "token_expired")], tokens: tokens)
        let sent = try result.get()
        #expect(sent.messageID == "m1" && !sent.replayed)
        #expect(tokens.rejections == 1 && client.requestCount == 2)
    }

    @Test("401 twice: session unavailable (retryable), only one retry")
    func expiredTwice() async {
        let tokens = StubTokenProvider(sessionID: "s")
        let (result, client) = await send(
            [.answer(401, code: "invalid_token"), .answer(401, code: "invalid_token")], tokens: tokens)
        guard case .failure(.retryable(.sessionUnavailable)) = result else {
            Issue.record("\(result)")
            return
        }
        #expect(tokens.rejections == 1 && client.requestCount == 2)
    }

    @Test("no session: retryable, no request sent")
    func noSession() async {
        let (result, client) = await send(
            [], tokens: StubTokenProvider(sessionID: "s", failure: .unavailable(.noTokens)))
        guard case .failure(.retryable(.sessionUnavailable)) = result else {
            Issue.record("\(result)")
            return
        }
        #expect(client.requestCount == 0)
    }

    @Test("a file over file_max_upload_bytes is refused before any upload, naming the limit")
    func fileTooLarge() async {
        let uploader = ScriptedUploader()
        let (result, client) = await send(
            [], uploader: uploader, attachments: [Self.source("a", size: 10), Self.source("b", size: 1001)])
        guard case .failure(.rejected("file_too_large", let message)) = result else {
            Issue.record("\(result)")
            return
        }
        #expect(message.contains("file_max_upload_bytes") && message.contains("1000"))
        #expect(uploader.calls == 0 && client.requestCount == 0)
    }

    @Test(
        "upload failures map to send outcomes",
        arguments: [
            (
                APIError.refused(
                    APIRefusal(operation: "createUpload", status: 415, code: "unsupported_media_type", message: "no")),
                "rejected"
            ),
            (.retryable(APIRetry(kind: .status(503, code: "x"), message: "5xx")), "retryable"),
            (.retryable(APIRetry(kind: .budget(uploadID: "u9"), message: "handed off")), "retryable"),
            (.cancelled, "cancelled"), (.sessionEnded("revoked"), "retryable"),
            (.failed(.fileChanged(path: "/a", reason: "mtime")), "rejected"),
        ])
    func uploadFailures(error: APIError, expected: String) async {
        let (result, client) = await send(
            [], uploader: ScriptedUploader(error), attachments: [Self.source("a", size: 10)])
        let outcome: String
        switch result {
        case .success: outcome = "success"
        case .failure(.retryable): outcome = "retryable"
        case .failure(.rejected): outcome = "rejected"
        case .failure(.cancelled): outcome = "cancelled"
        }
        #expect(outcome == expected, "\(error) -> \(result)")
        #expect(client.requestCount == 0, "no message after a failed upload")
    }
}
