import Foundation
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitCryptoInterface
import ShareKitDPoP
import ShareKitHTTPInterface
import ShareKitHTTPInterfaceTesting
import ShareKitHTTPTransport
import ShareKitHTTPTypes
import ShareKitKeychainInterface
import ShareKitServerAPI
import ShareKitSessions
import ShareKitSessionsInterface
import ShareKitSharedState
import ShareKitSystemTesting
import ShareKitTestSupport
import ShareKitUploads
import ShareKitUploadsInterface
import Synchronization

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

    /// Starts the server (with ``seed`` unless another is given) and signs in.
    /// - Parameter seed: the server's seed.
    init(seed: [String: Any] = UploadFixture.seed) async throws {
        sandbox = try ClientSandbox(seed: seed, prefix: "uploads-test")
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
        partsInFlight: Int = StreamingUploader.defaultPartsInFlight,
        observer: (@Sendable (StreamingUploader.Event) -> Void)? = nil
    ) -> StreamingUploader {
        StreamingUploader(
            api: AuthorizedClient(origin: origin, client: client ?? signed, tokens: provider(.child)),
            crypto: assembly.crypto, records: records, retry: retry, partsInFlight: partsInFlight, observer: observer)
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

/// The part number of an uploadPart request (`PUT …/parts/N`), nil for any other request.
private func partNumber(of request: HTTPClientRequest) -> Int? {
    guard request.method == .put else { return nil }
    return request.url.split(separator: "/").last.flatMap { Int($0) }
}

/// A DPoP client for the uploader that holds one part's request back until
/// another part's request has started (or `limit` passed), and counts how
/// many part requests were under way at once. Everything else passes to the
/// real client and server.
final class PartGate: DPoPSigningHTTPClient, @unchecked Sendable {
    private struct State {
        var started: Set<Int> = []
        var inFlight = 0
        var mostInFlight = 0
        var timedOut = false
    }
    private let inner: any DPoPSigningHTTPClient
    private let held: Int
    private let until: Int
    private let limit: Duration
    private let state = Mutex(State())

    /// - Parameters:
    ///   - inner: the real client.
    ///   - held: the part whose request waits.
    ///   - until: the part whose request must start first.
    ///   - limit: how long the held part waits at most.
    init(inner: any DPoPSigningHTTPClient, held: Int, until: Int, limit: Duration) {
        self.inner = inner
        self.held = held
        self.until = until
        self.limit = limit
    }

    /// Whether the held part gave up waiting.
    var timedOut: Bool { state.withLock { $0.timedOut } }
    /// The most part requests under way at once.
    var mostInFlight: Int { state.withLock { $0.mostInFlight } }

    func send(_ request: HTTPClientRequest, options: HTTPRequestOptions) async throws(HTTPClientError)
        -> HTTPClientResponse
    {
        try await inner.send(request, options: options)
    }

    func send(_ request: HTTPClientRequest, accessToken: String?, options: HTTPRequestOptions)
        async throws(HTTPClientError) -> HTTPClientResponse
    {
        guard let part = partNumber(of: request) else {
            return try await inner.send(request, accessToken: accessToken, options: options)
        }
        state.withLock { s in
            s.started.insert(part)
            s.inFlight += 1
            s.mostInFlight = max(s.mostInFlight, s.inFlight)
        }
        defer { state.withLock { $0.inFlight -= 1 } }
        if part == held {
            let deadline = ContinuousClock.now + limit
            // Polls a condition another task sets; the limit only bounds a failing run.
            while !state.withLock({ $0.started.contains(until) }) {
                guard ContinuousClock.now < deadline else {
                    state.withLock { $0.timedOut = true }
                    break
                }
                try? await Task.sleep(for: .milliseconds(2))
            }
        }
        return try await inner.send(request, accessToken: accessToken, options: options)
    }
}

/// A DPoP client on a link that dies silently after the first part: every
/// part request but part 1's gets no answer and ends only when its
/// cancellation handle fires (the uploader's stop), as a request whose
/// packets vanish would. It waits without holding a thread. Everything else
/// passes to the real client and server.
struct StalledAfterFirstPart: DPoPSigningHTTPClient {
    let inner: any DPoPSigningHTTPClient

    func send(_ request: HTTPClientRequest, options: HTTPRequestOptions) async throws(HTTPClientError)
        -> HTTPClientResponse
    {
        try await inner.send(request, options: options)
    }

    func send(_ request: HTTPClientRequest, accessToken: String?, options: HTTPRequestOptions)
        async throws(HTTPClientError) -> HTTPClientResponse
    {
        guard let part = partNumber(of: request), part > 1 else {
            return try await inner.send(request, accessToken: accessToken, options: options)
        }
        // A limit only a failing run reaches: an uploader that never stops.
        let limit = ContinuousClock.now + .seconds(60)
        while !(options.cancellation?.isCancelled ?? false) && ContinuousClock.now < limit {
            try? await Task.sleep(for: .milliseconds(5))
        }
        throw .cancelled
    }
}
