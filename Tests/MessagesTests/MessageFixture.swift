import Foundation
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitCore
import ShareKitCryptoInterface
import ShareKitDPoP
import ShareKitDelivery
import ShareKitDeliveryInterface
import ShareKitHTTPInterface
import ShareKitHTTPInterfaceTesting
import ShareKitHTTPTransport
import ShareKitKeychainInterface
import ShareKitMessages
import ShareKitMessagesInterface
import ShareKitSessions
import ShareKitSessionsInterface
import ShareKitSessionsInterfaceTesting
import ShareKitSharedState
import ShareKitSystemTesting
import ShareKitTestSupport
import ShareKitUploads
import ShareKitUploadsInterface
import Synchronization

/// One person (alex) against a real `share-server`: a chat channel with a
/// thread, a forum channel, at most 3 attachments, 16 KiB parts; the client
/// stack (DPoP on libcurl, a child session) and the delivery engine over it.
final class MessageFixture: @unchecked Sendable {
    static let maxAttachments = 3
    static var seed: [String: Any] {
        [
            "users": [["username": "alex", "password": "alex-demo-pass"]],
            "spaces": [
                [
                    "id": "s1", "name": "Space",
                    "channels": [
                        ["id": "c-chat", "name": "chat", "kind": "chat", "readers": ["alex"], "writers": ["alex"]],
                        ["id": "c-forum", "name": "forum", "kind": "forum", "readers": ["alex"], "writers": ["alex"]],
                    ],
                ]
            ],
            "threads": [["id": "t-1", "channel_id": "c-chat", "title": "First thread"]],
            "limits": [
                "upload_part_size": 16_384, "file_max_upload_bytes": 64 * 1024 * 1024,
                "message_max_attachments": maxAttachments,
            ],
            "accepted_content_types": ["text/plain", "application/octet-stream"],
        ]
    }
    static let limits = MessageLimits(messageMaxAttachments: maxAttachments, fileMaxUploadBytes: 64 * 1024 * 1024)

    let sandbox: ClientSandbox
    var server: ServerProcess { sandbox.server }
    var home: TemporaryDirectory { sandbox.home }
    var assembly: ClientAssembly { sandbox.assembly }
    var connection: ServerConnection { sandbox.connection }
    var signed: any DPoPSigningHTTPClient { sandbox.connection.signed }
    var storage: any SessionTokenStorage { sandbox.connection.storage }

    init() async throws {
        sandbox = try ClientSandbox(seed: Self.seed, prefix: "messages-test")
        do {
            let issuer = sandbox.connection.issuer
            try await issuer.login(username: "alex", password: SecretValue(utf8: "alex-demo-pass"))
            try await issuer.ensureChildSession(parent: sandbox.connection.provider(.parent))
        } catch {
            sandbox.close()
            throw error
        }
    }

    var origin: String { server.origin }

    func provider(_ role: SessionRole) -> any AccessTokenProvider { connection.provider(role) }

    /// The delivery engine as the CLI and the daemon use it, with the child session.
    func sender(limits: MessageLimits = MessageFixture.limits) -> EngineSender {
        EngineSender(server: connection.sender(.child, limits: limits, recordsDirectory: home.file("records")))
    }

    /// Writes a file of `size` pseudo-random bytes and describes it.
    func file(_ name: String, size: Int, seed: UInt32 = 1) throws -> UploadSource {
        let path = try sandbox.writeFile(name, size: size, seed: seed)
        return try UploadFile.source(path: path, contentType: "application/octet-stream")
    }

    func sha256(of source: UploadSource) throws -> String {
        try sandbox.sha256Hex(ofFile: source.path)
    }

    /// listMessages of a thread (or listChannelMessages), as JSON objects.
    func messages(thread: String? = nil, channel: String? = nil) async throws -> [[String: Any]] {
        let path = thread.map { "/api/v1/threads/\($0)/messages" } ?? "/api/v1/channels/\(channel ?? "")/messages"
        let token = try await provider(.child).currentAccessToken()
        let response = try await signed.send(
            HTTPClientRequest(method: .get, url: origin + path), accessToken: token.plainText)
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
        return object?["messages"] as? [[String: Any]] ?? []
    }

    /// Stops the server (which finishes and logs every request) and returns its log.
    func stopServer() -> String { sandbox.stopServer() }

    func close() { sandbox.close() }
}

/// How a send ended when it did not end sent, as these tests check it: the
/// delivery engine's outcome, back in the shape of a thrown failure.
enum SendFailure: Error, Hashable {
    case retryable(RetryReason)
    case rejected(code: String, message: String)
    case cancelled

    var isRetryable: Bool {
        if case .retryable = self { return true }
        return false
    }
}

/// The delivery engine sending one share (held by nothing: no inbox, no
/// outbox), its outcome read back as a message or a ``SendFailure``.
struct EngineSender: Sendable {
    let server: DeliveryServer

    /// A keeper that holds the share in memory only.
    private struct MemoryKeeper: DeliveryKeeping {
        typealias Failure = Never
        let held: OutgoingShare
        var place: DeliveryPlace { .outbox }
        func share() -> KeptShare { .readable(held) }
        func uploaded(index: Int, uploadID: String) {}
        func sent(_ message: SentMessage) {}
        func keep(_ reason: RetryReason, messageRequested: Bool, interrupted: Bool) -> Int64? { nil }
        func refuse(_ refusal: DeliveryRefusal) -> DeliveryPlace? { nil }
        func cancelled(keep: Bool, mayBeOnServer: Bool) -> Bool { keep }
    }

    func send(
        _ share: OutgoingShare, progress: (@Sendable (SendProgress) -> Void)?, cancellation: HTTPCancellation?
    ) async throws(SendFailure) -> SentMessage {
        precondition(cancellation == nil, "the engine is cancelled through its interruption")
        let outcome = await DeliveryEngine().deliver(
            DeliveryRequest(server: server, progress: progress), keeping: MemoryKeeper(held: share))
        switch outcome {
        case .sent(let message): return message
        case .kept(let reason, _, _): throw .retryable(reason)
        case .refused(let refusal): throw .rejected(code: refusal.code, message: refusal.message)
        case .cancelled: throw .cancelled
        }
    }
}

/// Runs `body` and returns how it failed (nil when it succeeded).
func sendError(_ body: () async throws(SendFailure) -> SentMessage) async -> SendFailure? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}

/// Collects values from callbacks on any thread.
final class Collector<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}
