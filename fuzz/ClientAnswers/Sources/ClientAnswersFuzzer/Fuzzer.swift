import Dispatch
import Foundation
import FuzzSupport
import ShareKitCore
import ShareKitHTTPInterface
import ShareKitHTTPTypes
import ShareKitMessages
import ShareKitMessagesInterface
import ShareKitOpenSSLCrypto
import ShareKitPushPreview
import ShareKitPushPreviewInterface
import ShareKitServerAPIInterface
import ShareKitTargetStore
import ShareKitTargetStoreInterface
import ShareKitUploads
import ShareKitUploadsInterface

@testable import ShareKitSessions

/// An API client that answers every request with the input's status,
/// `Retry-After` and body, classified the way the live client classifies:
/// the modules see exactly what a hostile server could make them see.
struct HostileAPI: AuthorizedAPIClient {
    let origin = "http://127.0.0.1:9"
    let status: Int
    let retryAfter: String
    let body: [UInt8]
    /// Answers for paths ending with these suffixes take precedence (the
    /// uploader's parts and completion must succeed for the fuzzed
    /// createUpload/getUpload answers to reach the arithmetic).
    let fixed: [(suffix: String, status: Int, body: [UInt8])]

    func send(_ request: APIRequest, options: APICallOptions) async throws(APIError) -> APIResponse {
        let path = request.path.split(separator: "?").first.map(String.init) ?? request.path
        if let hit = fixed.first(where: { path.hasSuffix($0.suffix) }) {
            return APIResponse(status: hit.status, body: hit.body)
        }
        let headers: HTTPFields = ["Retry-After": retryAfter]
        if let error = APIClassifier.classify(
            status: status, headers: headers, body: body, operation: request.operation, now: 1_700_000_000)
        {
            throw error
        }
        return APIResponse(status: status, headers: headers, body: body)
    }
}

/// A small file the uploader reads, made once per process.
let uploadFile: UploadSource = {
    let path = NSTemporaryDirectory() + "/client-answers-fuzz-\(getpid()).bin"
    _ = FileManager.default.createFile(atPath: path, contents: Data(repeating: 0x61, count: 3000))
    return try! UploadFile.source(path: path, contentType: "application/octet-stream")
}()

let crypto = OpenSSLCryptoProvider()

/// Runs an async body to its end on the cooperative pool and waits for it
/// (libFuzzer calls the target on its own thread, outside the pool).
func blocking(_ body: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
        await body()
        done.signal()
    }
    done.wait()
}

/// One input: byte 0 picks the route, byte 1 the status (2xx mostly), the
/// next byte's low bits the `Retry-After` form; the rest is the body. Every
/// decoder must return a value or throw; every computation on what it
/// decoded must not trap. A trap or sanitizer report is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    guard bytes.count >= 3 else { return 0 }
    let statuses = [200, 201, 200, 204, 200, 401, 404, 409, 429, 503, 500, 413, 302, 100, 599, 0, -1, 999]
    let status = statuses[Int(bytes[1]) % statuses.count]
    let retryForms = ["7", "10000000000000000", "-3", "Sun, 06 Nov 1994 08:49:37 GMT", "", String(bytes[2])]
    let retryAfter = retryForms[Int(bytes[2]) % retryForms.count]
    let body = Array(bytes[3...])
    let text = String(decoding: body, as: UTF8.self)
    _ = RetryAfter.parse(text, now: Int64(bitPattern: UInt64(bytes[2]) << 56))
    _ = ProblemDocument(body: body, status: status)
    _ = TokenResponse.decode(body, sentAt: Int64(bitPattern: UInt64(bytes[2]) << 56 | 0xFFFF))
    _ = try? APIJSON.decode(JSONValue.self, from: body)
    _ = try? PushPayloadParser.parse(body)
    let plain = HostileAPI(status: status, retryAfter: retryAfter, body: body, fixed: [])
    switch bytes[0] % 6 {
    case 0:
        blocking {
            let client = MessageClient(api: plain)
            _ = try? await client.createMessage(
                in: ShareTarget(kind: .thread, id: "t1", displayPath: "t1"), clientMsgID: UUIDv7(), text: "x",
                uploadIDs: [])
            _ = try? await client.instanceLimits()
        }
    case 1, 2:
        // createUpload and getUpload answer with the input; part 2 is always
        // busy, so after the first pass getUpload's answer decides what is
        // sent again: the part arithmetic runs on what was decoded.
        let busyPart = Array(#"{"code":"busy"}"#.utf8)
        let api = HostileAPI(
            status: status, retryAfter: retryAfter, body: body,
            fixed: [("/complete", 200, Array(#"{"sha256":"x"}"#.utf8)), ("/parts/2", 503, busyPart)]
                + [1, 3, 4].map { ("/parts/\($0)", 200, []) })
        blocking {
            let uploader = StreamingUploader(
                api: api, crypto: crypto, records: nil, partSizeHint: bytes[0] % 2 == 0 ? nil : 1024,
                retry: .init(delays: [.zero]))
            _ = try? await uploader.upload(
                uploadFile, limits: UploadLimits(fileMaxUploadBytes: .max), budget: .seconds(5), progress: nil,
                cancellation: nil)
        }
    case 3:
        blocking {
            let directory = ServerTargetDirectory(api: plain, cacheLifetime: .zero)
            _ = try? await directory.search(query: "x", limit: 5, includingReadOnly: true)
            _ = try? await directory.resolve("thread:t1")
            _ = try? await directory.resolve("server > Gateway")
        }
    case 4:
        blocking {
            let registrar = PushRegistrar(api: plain)
            _ = try? await registrar.register(pushToken: "t", provider: "test", environment: "e", appID: "a")
            _ = await PreviewClient(api: { _ in plain }).fetch(
                PushRegistration(origin: plain.origin, registrationID: "r", previewToken: "p", pushToken: "t"),
                nid: "n", messageID: "m", deadline: .now + .seconds(5))
        }
    default:
        blocking {
            _ = try? await plain.send(EventPage.request(after: "1", wait: 0), decoding: EventPage.self)
            _ = try? await plain.send(
                APIRequest("getSettings", path: "/api/v1/settings"), decoding: SettingsAnswer.self)
        }
    }
    return 0
}

@_cdecl("ClientAnswersFuzzer_main")
func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc: argc, argv: argv, target: fuzz)
}
