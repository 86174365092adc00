import Foundation
import Glibc
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitCore
import ShareKitHTTPInterface
import ShareKitHTTPTypes
import ShareKitKeychainInterface
import ShareKitPushPreview
import ShareKitPushPreviewInterface
import ShareKitSQLInterface
import ShareKitSQLiteStore
import ShareKitSessions
import ShareKitSessionsInterface
import ShareKitSharedState
import ShareKitSharedStateInterface
import ShareKitSystemTesting
import ShareKitTestSupport

/// Alex logged in (parent and child session) against a real `share-server`,
/// a message to preview, and this device registered for push (the preview
/// token in the keychain, as the daemon stores it). `share notify` runs as a
/// process with this app group's environment.
final class PushFixture: @unchecked Sendable {
    static let channelName = "Gateway Ops"
    static let threadTitle = "Resume the gateway"
    static let excerpt = "Deploy window moves to Thursday"

    /// Sam's password: Sam writes in Alex's threads (the pushes of real messages).
    static let samPassword = "sam-demo-pass"
    /// The thread of the side channel, which a test can make unreadable for Alex.
    static let sideThread = "t-side"

    static func seed(requireNonce: Bool) -> [String: Any] {
        [
            "users": [
                ["username": "alex", "password": "alex-demo-pass"], ["username": "sam", "password": samPassword],
            ],
            "spaces": [
                [
                    "id": "s1", "name": "Space",
                    "channels": [
                        [
                            "id": "c-ops", "name": channelName, "kind": "chat", "readers": ["alex", "sam"],
                            "writers": ["alex", "sam"],
                        ],
                        [
                            "id": "c-side", "name": "Side", "kind": "chat", "readers": ["alex", "sam"],
                            "writers": ["sam"],
                        ],
                    ],
                ]
            ],
            "threads": [
                ["id": "t-1", "channel_id": "c-ops", "title": threadTitle],
                ["id": "t-2", "channel_id": "c-ops", "title": "Second thread"],
                ["id": "t-3", "channel_id": "c-ops", "title": "Third thread"],
                ["id": "t-4", "channel_id": "c-ops", "title": "Fourth thread"],
                ["id": "t-5", "channel_id": "c-ops", "title": "Fifth thread"],
                ["id": "t-6", "channel_id": "c-ops", "title": "Sixth thread"],
                ["id": sideThread, "channel_id": "c-side", "title": "Side thread"],
            ],
            "dpop": ["require_nonce": requireNonce, "nonce_ttl_seconds": 60, "iat_window_seconds": 60],
        ]
    }

    let sandbox: ClientSandbox
    var origin: String { sandbox.origin }
    var state: any SharedStateStore { sandbox.assembly.container.state }
    var instance: String { PushRegistration.instance(ofOrigin: origin) }
    var registrations: KeychainPushRegistrations {
        KeychainPushRegistrations(store: sandbox.assembly.secretStore, accessGroup: ClientAssembly.accessGroup)
    }
    /// The message of thread t-1 whose preview the tests fetch.
    private(set) var messageID = ""

    init(requireNonce: Bool = false) async throws {
        sandbox = try ClientSandbox(seed: Self.seed(requireNonce: requireNonce), prefix: "push-preview-test")
        do {
            let issuer = sandbox.connection.issuer
            try await issuer.login(username: "alex", password: SecretValue(utf8: "alex-demo-pass"))
            try await issuer.ensureChildSession(parent: sandbox.connection.provider(.parent))
            try sandbox.assembly.accounts.record(SignedInAccount(origin: origin, username: "alex"))
            messageID = try await createMessage(Self.excerpt)
            let registration = try await sandbox.connection.pushRegistrar().register(
                pushToken: "fixture-device", provider: "test", environment: "production", appID: "tests")
            try registrations.store(registration, instance: instance)
        } catch {
            sandbox.close()
            throw error
        }
    }

    /// One call with Alex's parent session; the answer's JSON object.
    @discardableResult
    func call(_ method: HTTPRequestMethod, _ path: String, json: [String: Any]? = nil) async throws -> (
        Int, [String: Any]
    ) {
        let token = try await sandbox.connection.provider(.parent).currentAccessToken()
        var request = HTTPClientRequest(method: method, url: origin + path)
        if let json {
            request.body = .bytes(Array(try JSONSerialization.data(withJSONObject: json)))
            request.headers.set("Content-Type", "application/json")
        }
        let response = try await sandbox.connection.signed.send(request, accessToken: token.plainText)
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
        return (response.status, object)
    }

    /// createMessage in thread t-1; returns the message id.
    func createMessage(_ text: String) async throws -> String {
        let (status, object) = try await call(
            .post, "/api/v1/threads/t-1/messages", json: ["client_msg_id": UUIDv7().description, "text": text])
        guard status == 201 || status == 200, let message = object["message"] as? [String: Any],
            let id = message["id"] as? String
        else { throw FixtureError("createMessage answered \(status): \(object)") }
        return id
    }

    /// Sets `notify.preview_mode` at the server and in the shared state (as the daemon would).
    func setMode(_ mode: PreviewMode) async throws {
        let (status, _) = try await call(.patch, "/api/v1/settings", json: ["notify": ["preview_mode": mode.rawValue]])
        guard status == 200 else { throw FixtureError("updateSettings answered \(status)") }
        try state.set(mode.rawValue, for: .previewMode)
    }

    /// A version 1 payload as the server sends it, for a message (this fixture's by default).
    func payload(message: String? = nil, kind: String = "message", extra: [String: Any] = [:]) -> [String: Any] {
        var object: [String: Any] = [
            "aps": [
                "alert": ["title-loc-key": "PUSH_TITLE", "loc-key": "PUSH_BODY_MESSAGE"], "mutable-content": 1,
                "thread-id": "t-1", "badge": 3, "sound": "default",
            ] as [String: Any],
            "b": ["v": 1, "nid": "n-fixture", "k": kind, "i": instance, "t": "t-1", "m": message ?? messageID],
        ]
        for (key, value) in extra { object[key] = value }
        return object
    }

    /// Runs `share notify` with the payload on standard input.
    func notify(
        _ payload: [String: Any], _ flags: [String] = ["--json"], environment: [String: String] = [:]
    ) throws -> ProcessResult {
        let text = String(decoding: try JSONSerialization.data(withJSONObject: payload), as: UTF8.self)
        return try notify(text: text, flags, environment: environment)
    }

    /// Runs `share notify --payload -` with the text on standard input.
    func notify(text: String, _ flags: [String] = ["--json"], environment: [String: String] = [:]) throws
        -> ProcessResult
    {
        // English unless a test asks otherwise, whatever the machine's locale.
        let locale = ["LANG": "C.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""]
        return try runProcess(
            BuiltProducts.path("share"), ["notify", "--payload", "-"] + flags,
            environment: sandbox.environment.merging(locale) { $1 }.merging(environment) { $1 }, stdin: text)
    }

    /// The `--json` object of a `share notify` run.
    static func json(_ result: ProcessResult) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any] ?? [:]
    }

    /// The server's request lines for getPushPreview so far.
    func previewLines() -> [String] {
        sandbox.server.log.split(separator: "\n").map(String.init).filter { $0.contains("/api/v1/push/preview") }
    }

    /// Replaces the stored registration's server with another one (same preview token).
    func pointRegistration(at origin: String) throws {
        guard var registration = try registrations.registration(instance: instance) else {
            throw FixtureError("no push registration is stored")
        }
        registration.origin = origin
        try registrations.store(registration, instance: instance)
    }

    /// Every file of the shared container, as text.
    func containerTexts() -> [String: String] {
        let root = sandbox.assembly.container.rootPath
        var texts: [String: String] = [:]
        for name in (try? FileManager.default.subpathsOfDirectory(atPath: root)) ?? [] {
            guard let data = FileManager.default.contents(atPath: root + "/" + name) else { continue }
            texts[name] = String(decoding: data, as: UTF8.self)
        }
        return texts
    }

    func close() { sandbox.close() }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A loopback server that answers every request with one fixed response
/// (a preview answer the reference server would never send).
final class FixedAnswerServer: @unchecked Sendable {
    private let listener: SilentServer
    private let thread: Thread

    convenience init(status: Int, body: String) throws {
        try self.init(status: status) { _ in body }
    }

    /// - Parameter body: the body, made from the server's own origin.
    init(status: Int, body makeBody: (String) throws -> String) throws {
        let listener = try SilentServer()
        self.listener = listener
        let body = try makeBody(listener.origin)
        let response = Array(
            ("HTTP/1.1 \(status) X\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
                + "Connection: close\r\n\r\n" + body).utf8)
        thread = Thread {
            while true {
                let client = accept(listener.fd, nil, nil)
                guard client >= 0 else { return }
                var request: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 4096)
                while !request.suffix(4).elementsEqual([13, 10, 13, 10]) {
                    let n = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                    if n <= 0 { break }
                    request += buffer[0..<n]
                    if let end = request.firstRange(of: [13, 10, 13, 10]) {
                        request = Array(request[..<end.upperBound])
                    }
                }
                _ = response.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(client)
            }
        }
        thread.start()
    }

    var origin: String { listener.origin }

    func stop() {
        shutdown(listener.fd, Int32(SHUT_RDWR))
        listener.stop()
    }
}
