import Foundation
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitCore
import ShareKitCoreTesting
import ShareKitDelivery
import ShareKitDeliveryInterface
import ShareKitHTTPInterface
import ShareKitHTTPInterfaceTesting
import ShareKitKeychainInterface
import ShareKitMessages
import ShareKitMessagesInterface
import ShareKitOutbox
import ShareKitOutboxInterface
import ShareKitSQLInterface
import ShareKitSQLiteStore
import ShareKitSessions
import ShareKitSessionsInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Synchronization

/// One person (alex, logged in: the daemon's parent session) against a real
/// `share-server`, and an outbox on a real SQLite file in the app group's
/// directory, with a clock the test moves.
final class OutboxFixture: @unchecked Sendable {
    static let thread = ShareTarget(kind: .thread, id: "t-1", displayPath: "Space / chat / First thread")
    static let limits = MessageLimits(messageMaxAttachments: 3, fileMaxUploadBytes: 64 * 1024 * 1024)
    static var seed: [String: Any] {
        [
            "users": [["username": "alex", "password": "alex-demo-pass"]],
            "spaces": [
                [
                    "id": "s1", "name": "Space",
                    "channels": [
                        ["id": "c-chat", "name": "chat", "kind": "chat", "readers": ["alex"], "writers": ["alex"]]
                    ],
                ]
            ],
            "threads": [["id": "t-1", "channel_id": "c-chat", "title": "First thread"]],
            "limits": [
                "upload_part_size": 16_384, "file_max_upload_bytes": 64 * 1024 * 1024, "message_max_attachments": 3,
            ],
            "accepted_content_types": ["text/plain", "application/octet-stream"],
        ]
    }

    let sandbox: ClientSandbox
    let clock = TestClock()
    let databasePath: String
    let outboxDirectory: String
    let database: SQLiteDatabase
    let outbox: SQLiteOutbox
    /// A server started again on the same port and database (``restartServer()``).
    private var restarted: ServerProcess?

    init() async throws {
        sandbox = try ClientSandbox(seed: Self.seed, prefix: "outbox-test")
        do {
            try await sandbox.connection.issuer.login(username: "alex", password: SecretValue(utf8: "alex-demo-pass"))
            databasePath = sandbox.home.file("daemon.db")
            outboxDirectory = sandbox.home.file("outbox")
            database = try SQLiteDatabase(path: databasePath)
            outbox = try SQLiteOutbox(database: database, directory: outboxDirectory)
        } catch {
            sandbox.close()
            throw error
        }
    }

    var origin: String { sandbox.origin }
    var home: TemporaryDirectory { sandbox.home }

    /// The daemon's sender: the parent session.
    func sender() -> DeliveryServer {
        sandbox.connection.sender(.parent, limits: Self.limits, recordsDirectory: home.file("records"))
    }

    /// A drainer over the outbox with the test's clock and a seeded backoff.
    func drainer(
        lease: Duration = .seconds(600), observer: (@Sendable (DrainEvent) -> Void)? = nil,
        sentCallback: (@Sendable (OutboxItem, SentMessage) -> Void)? = nil, sender given: DeliveryServer? = nil
    ) -> OutboxDrainer {
        let sender = given ?? sender()
        let origin = origin
        return OutboxDrainer(
            outbox: outbox, delivery: DeliveryEngine(),
            makeSender: { requested in
                precondition(requested == origin, "an item for another server: \(requested)")
                return sender
            }, clock: clock.millisecondsSource, backoff: BackoffPolicy(random: { $0.upperBound }), lease: lease,
            sentCallback: sentCallback, observer: observer)
    }

    /// Queues a text share (and files, given as name and size) the way the
    /// takeover would: files first in the item's own folder.
    @discardableResult
    func enqueue(_ text: String, files: [(String, Int)] = [], id: UUIDv7 = UUIDv7()) throws -> OutboxItem {
        let folder = try outbox.filesDirectory(for: id)
        var attachments: [OutboxAttachment] = []
        for (index, (name, size)) in files.enumerated() {
            let source = try sandbox.writeFile("src-\(id)-\(name)", size: size, seed: UInt32(index + 1))
            let stored = folder + "/\(index)-\(name)"
            try FileManager.default.copyItem(atPath: source, toPath: stored)
            attachments.append(
                OutboxAttachment(
                    storedPath: stored, fileName: name, contentType: "application/octet-stream", size: Int64(size)))
        }
        let item = OutboxItem(
            clientMsgID: id, serverOrigin: origin, target: Self.thread, text: text, attachments: attachments,
            nextAttemptAt: clock.milliseconds, createdAt: clock.milliseconds)
        try outbox.enqueue(item)
        return item
    }

    /// listMessages of the thread, as JSON objects (the parent session reads).
    func messages() async throws -> [[String: Any]] {
        let token = try await sandbox.connection.provider(.parent).currentAccessToken()
        let response = try await sandbox.connection.signed.send(
            HTTPClientRequest(method: .get, url: origin + "/api/v1/threads/t-1/messages"),
            accessToken: token.plainText)
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
        return object?["messages"] as? [[String: Any]] ?? []
    }

    /// How often each `client_msg_id` is on the server.
    func serverCounts() async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for message in try await messages() {
            if let id = message["client_msg_id"] as? String { counts[id, default: 0] += 1 }
        }
        return counts
    }

    /// Stops the server (its database stays).
    func stopServer() { _ = sandbox.stopServer() }

    /// Starts the server again on the same port with the same database, so
    /// the origin and the sessions stay valid.
    func restartServer() throws {
        let port = String(origin.split(separator: ":").last ?? "0")
        restarted = try ServerProcess(
            seed: Self.seed, extraArguments: ["--listen", "127.0.0.1:" + port], directory: sandbox.server.directory)
    }

    func close() {
        try? database.close()
        restarted?.stop(removeFiles: false)
        sandbox.close()
    }
}
