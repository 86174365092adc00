import ClientAssembly
import ClientTestSupport
import CryptoInterface
import DPoP
import Foundation
import HTTPInterface
import HTTPInterfaceTesting
import HTTPTransport
import KeychainInterface
import Messages
import MessagesInterface
import Sessions
import SessionsInterface
import SessionsInterfaceTesting
import ShareCore
import SharedState
import Synchronization
import SystemTesting
import TestSupport
import Uploads
import UploadsInterface

/// One person (alex) against a real `share-server`: a chat channel with a
/// thread, a forum channel, at most 3 attachments, 16 KiB parts; the client
/// stack (DPoP on libcurl, a child session) and a ``Sender`` over it.
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

    /// The Sender the CLI and the daemon would use, with the child session.
    func sender(limits: MessageLimits = MessageFixture.limits) -> any ShareSending {
        connection.sender(.child, limits: limits, recordsDirectory: home.file("records"))
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

/// Runs `body` and returns its SendError (nil when it succeeded).
func sendError(_ body: () async throws(SendError) -> SentMessage) async -> SendError? {
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
