import Foundation
import ShareKitClientAssembly
import ShareKitDPoP
import ShareKitHTTPInterface
import ShareKitHTTPTransport
import ShareKitServerAPI
import ShareKitServerAPIInterface
import ShareKitSessions
import ShareKitSessionsInterface
import ShareKitSharedState
import ShareKitSharedStateInterface
import ShareKitUploads
import ShareKitUploadsInterface

/// `upload <app|share_ext> <origin> <file> <content-type> <records-dir> [--pause-after-part <k>] [--parts-in-flight <n>]`:
/// one program of the app group uploading a file with a ``StreamingUploader``
/// (keychain and container from the environment through ``ClientAssembly``,
/// libcurl with DPoP, the role's ``RefreshingTokenProvider``, a
/// ``FileUploadRecordStore`` in `<records-dir>`).
///
/// Lines on standard output, for tests to wait on:
/// - `created <upload id> <parts count>`, `resumed <upload id> <missing parts, comma-separated>`,
///   `part <n>` for each acknowledged part;
/// - `paused` after part `k` with `--pause-after-part`: it then waits for a
///   line on standard input (tests kill it here), while parts already in
///   flight beside it (`--parts-in-flight` above 1) go on;
/// - `done <upload id> <sha256>`, or `error <message>` (exit 4).
func uploadCommand(_ arguments: [String]) throws {
    let usage =
        "upload <app|share_ext> <origin> <file> <content-type> <records-dir> [--pause-after-part <k>] "
        + "[--parts-in-flight <n>]"
    let args = HelperArguments(arguments, usage: usage)
    guard let role = SessionRole(rawValue: try args.string(0)) else {
        throw HelperFailure("unknown role '\(try args.string(0))'")
    }
    let origin = try args.string(1)
    let path = try args.string(2)
    let contentType = try args.string(3)
    let recordsDirectory = try args.string(4)
    var pauseAfterPart: Int?
    var partsInFlight = StreamingUploader.defaultPartsInFlight
    var index = 5
    while index < arguments.count {
        switch arguments[index] {
        case "--pause-after-part": pauseAfterPart = try args.integer(index + 1)
        case "--parts-in-flight": partsInFlight = try args.integer(index + 1)
        default: throw HelperFailure("usage: \(usage)")
        }
        index += 2
    }
    let pauseAfter = pauseAfterPart

    let assembly = try ClientAssembly(environment: ProcessInfo.processInfo.environment)
    let signed = DPoPHTTPClient(
        client: try CurlHTTPClient(), signer: try assembly.deviceKeys.proofSigner(),
        nonces: DPoPNonceHandler(cache: SharedStateNonceCache(state: assembly.container.state)))
    let storage = SessionTokenStore(
        secretStore: assembly.secretStore, accessGroup: ClientAssembly.accessGroup, serverOrigin: origin)
    let provider = RefreshingTokenProvider(
        role: role, serverOrigin: origin, storage: storage, client: signed, locks: assembly.container.locks)
    let uploader = StreamingUploader(
        api: AuthorizedClient(origin: origin, client: signed, tokens: provider), crypto: assembly.crypto,
        records: FileUploadRecordStore(directory: recordsDirectory, crypto: assembly.crypto),
        partsInFlight: partsInFlight,
        observer: { event in
            switch event {
            case .created(let id, let count):
                printFlushed("created \(id) \(count)")
            case .resumed(let id, let missing):
                printFlushed("resumed \(id) \(missing.map(String.init).joined(separator: ","))")
            case .partAcknowledged(_, let part):
                printFlushed("part \(part)")
                if part == pauseAfter {
                    printFlushed("paused")
                    _ = readLine()
                }
            default:
                break
            }
        })
    let source = try UploadFile.source(path: path, contentType: contentType)
    let outcome = runBlocking { () async -> Result<CompletedUpload, APIError> in
        do throws(APIError) {
            return .success(
                try await uploader.upload(
                    source, limits: UploadLimits(fileMaxUploadBytes: .max), budget: .seconds(120), progress: nil,
                    cancellation: nil))
        } catch {
            return .failure(error)
        }
    }
    switch outcome {
    case .success(let done):
        printFlushed("done \(done.uploadID) \(done.sha256)")
    case .failure(let error):
        printFlushed("error \(error)")
        exit(4)
    }
}
