import ClientAssembly
import ClientTestSupport
import CryptoInterface
import DPoP
import Foundation
import HTTPInterface
import HTTPInterfaceTesting
import HTTPTransport
import HTTPTypes
import KeychainInterface
import ServerAPI
import Sessions
import SessionsInterface
import SharedState
import Synchronization
import SystemTesting
import TestSupport
import Uploads
import UploadsInterface

/// One person's client side against a real `share-server` seeded with small
/// parts (16 KiB) and `text/plain` / `application/octet-stream`: a keychain
/// and a container of their own, the DPoP client on libcurl, a signed-in
/// child session, and a directory for files and upload records.
final class UploadFixture: @unchecked Sendable {
    static let partSize = 16_384
    static var seed: [String: Any] {
        [
            "users": [["username": "alex", "password": "alex-demo-pass"]],
            "limits": ["upload_part_size": partSize, "file_max_upload_bytes": 64 * 1024 * 1024],
            "accepted_content_types": ["text/plain", "application/octet-stream"],
        ]
    }

    let sandbox: ClientSandbox
    var server: ServerProcess { sandbox.server }
    var home: TemporaryDirectory { sandbox.home }
    var environment: [String: String] { sandbox.environment }
    var assembly: ClientAssembly { sandbox.assembly }
    var connection: ServerConnection { sandbox.connection }
    let signed: any DPoPSigningHTTPClient
    let storage: any SessionTokenStorage
    let records: FileUploadRecordStore

    init() async throws {
        sandbox = try ClientSandbox(seed: Self.seed, prefix: "uploads-test")
        do {
            signed = sandbox.connection.signed
            storage = sandbox.connection.storage
            records = FileUploadRecordStore(directory: sandbox.home.file("records"), crypto: sandbox.assembly.crypto)
            let issuer = sandbox.connection.issuer
            try await issuer.login(username: "alex", password: SecretValue(utf8: "alex-demo-pass"))
            try await issuer.ensureChildSession(parent: sandbox.connection.provider(.parent))
        } catch {
            sandbox.close()
            throw error
        }
    }

    var origin: String { server.origin }
    var recordsDirectory: String { home.file("records") }

    func provider(_ role: SessionRole) -> any AccessTokenProvider { connection.provider(role) }

    /// An uploader for the child session, over `client` (the fixture's DPoP client unless given).
    func uploader(
        client: (any DPoPSigningHTTPClient)? = nil, retry: StreamingUploader.RetryPolicy = .init(),
        observer: (@Sendable (StreamingUploader.Event) -> Void)? = nil
    ) -> StreamingUploader {
        StreamingUploader(
            api: AuthorizedClient(origin: origin, client: client ?? signed, tokens: provider(.child)),
            crypto: assembly.crypto, records: records, retry: retry, observer: observer)
    }

    /// Writes a file of `size` pseudo-random bytes and describes it.
    func file(_ name: String, size: Int, contentType: String = "application/octet-stream") throws -> UploadSource {
        let path = try sandbox.writeFile(name, size: size)
        return try UploadFile.source(path: path, contentType: contentType)
    }

    /// The file's SHA-256 in hex, computed here independently of the uploader.
    func sha256(of source: UploadSource) throws -> String {
        try sandbox.sha256Hex(ofFile: source.path)
    }

    /// `GET /api/v1/uploads/{id}` with the child session, as JSON.
    func getUpload(_ id: String) async throws -> (status: Int, object: [String: Any]) {
        let token = try await provider(.child).currentAccessToken()
        let response = try await signed.send(
            HTTPClientRequest(method: .get, url: origin + "/api/v1/uploads/" + id), accessToken: token.plainText)
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
        return (response.status, object)
    }

    /// A helper process of this app group running `upload`.
    func helperUpload(_ source: UploadSource, _ flags: [String] = []) throws -> HelperProcess {
        try HelperProcess(
            ["upload", SessionRole.child.rawValue, origin, source.path, source.contentType, recordsDirectory] + flags,
            environment: environment)
    }

    /// Stops the server (which finishes and logs every request) and returns its log.
    func stopServer() -> String { sandbox.stopServer() }

    /// The request lines of the log containing `fragment`.
    static func lines(_ log: String, containing fragment: String) -> [String] {
        log.split(separator: "\n").map(String.init).filter { $0.contains(fragment) }
    }

    func close() { sandbox.close() }
}

/// Collects values from callbacks on any thread.
final class Collector<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}

/// A DPoP client that loses the connection of chosen requests once each (a
/// part that fails midway, without a proxy) and answers others, without
/// sending them, with the given statuses in turn; the rest go to `inner`.
/// - Parameters:
///   - inner: the real client.
///   - failOnce: URL suffixes (`/parts/3`) whose first request fails.
///   - answer: URL suffixes answered, without sending, with these statuses in turn.
///   - retryAfter: the `Retry-After` of those answers, if any.
func flakyClient(
    _ inner: any DPoPSigningHTTPClient, failOnce: Set<String> = [], answer: [String: [Int]] = [:],
    retryAfter: String? = nil
) -> ScriptedHTTPClient {
    let client = ScriptedHTTPClient(whenExhausted: .passThrough(inner))
    for suffix in failOnce.sorted() {
        client.answer(urlSuffix: suffix, with: [.failure(.connectionLost("cut by the test"))])
    }
    for (suffix, statuses) in answer.sorted(by: { $0.key < $1.key }) {
        var headers = HTTPFields()
        if let retryAfter { headers.set("Retry-After", retryAfter) }
        client.answer(
            urlSuffix: suffix,
            with: statuses.map { status in
                .raw(
                    status, #"{"type":"about:blank","status":\#(status),"code":"test_\#(status)","title":"Test"}"#,
                    headers: headers)
            })
    }
    return client
}
