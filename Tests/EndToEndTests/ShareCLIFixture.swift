import Foundation
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitCore
import ShareKitHTTPInterface
import ShareKitInbox
import ShareKitInboxInterface
import ShareKitKeychainInterface
import ShareKitSessions
import ShareKitSessionsInterface
import ShareKitSharedState
import ShareKitSharedStateInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// Alex, logged in with a parent and a child session, and the `share`
/// program run as a separate process the way a person runs it, against a
/// real `share-server` on loopback.
final class ShareCLIFixture: @unchecked Sendable {
    let sandbox: ClientSandbox
    var server: ServerProcess { sandbox.server }
    var home: TemporaryDirectory { sandbox.home }

    /// - Parameters:
    ///   - seed: the server's seed; nil for `demo`.
    ///   - childSession: whether to make the child session too (false: the
    ///     parent only, as after a login whose child could not be made).
    ///   - engine: the server's database engine; the test is cancelled (a
    ///     skip with the reason) where PostgreSQL cannot run.
    init(seed: [String: Any]? = nil, childSession: Bool = true, engine: ServerEngine = .sqlite) async throws {
        do {
            sandbox = try ClientSandbox(seed: seed, prefix: "share-send-test", engine: engine)
        } catch let unavailable as TemporaryPostgres.Unavailable {
            try Test.cancel("skipped on PostgreSQL: \(unavailable)")
        }
        do {
            let issuer = sandbox.connection.issuer
            try await issuer.login(username: "alex", password: SecretValue(utf8: "alex-demo-pass"))
            if childSession { _ = try await issuer.ensureChildSession(parent: sandbox.connection.provider(.parent)) }
            try sandbox.assembly.accounts.record(SignedInAccount(origin: sandbox.origin, username: "alex"))
        } catch {
            sandbox.close()
            throw error
        }
    }

    /// Runs `share <arguments>` with this app group's environment.
    func share(_ arguments: [String], stdin: String? = nil) throws -> ProcessResult {
        try runProcess(BuiltProducts.path("share"), arguments, environment: sandbox.environment, stdin: stdin)
    }

    /// Runs `share <arguments>` with this app group's environment and `extra` over it (a locale).
    func share(_ arguments: [String], environment extra: [String: String]) throws -> ProcessResult {
        try runProcess(
            BuiltProducts.path("share"), arguments, environment: sandbox.environment.merging(extra) { $1 })
    }

    /// Starts `share <arguments>` without waiting (crash tests); its
    /// standard error is read with its standard output (`--verbose` steps).
    func start(_ arguments: [String]) throws -> HelperProcess {
        try HelperProcess(
            executable: BuiltProducts.path("share"), arguments, environment: sandbox.environment, mergeErrors: true)
    }

    /// The inbox as the daemon would see it.
    func scanInbox() throws -> InboxScan {
        try FileShareInbox(directory: sandbox.assembly.container.inboxPath).scan()
    }

    /// The manifests on disk, as text (to scan them for secrets).
    func manifestTexts() -> [String] {
        let inbox = sandbox.assembly.container.inboxPath
        let names = (try? FileManager.default.subpathsOfDirectory(atPath: inbox)) ?? []
        return names.filter { $0.hasSuffix("manifest.json") }.compactMap {
            try? String(contentsOfFile: inbox + "/" + $0, encoding: .utf8)
        }
    }

    /// Every secret the keychain holds for this server (access and refresh tokens of both families).
    func tokens() throws -> [String] {
        var values: [String] = []
        for role in [SessionRole.parent, .child] {
            if let pair = try sandbox.connection.storage.read(role) {
                values += [pair.accessToken, pair.refreshToken].compactMap(\.utf8String)
            }
        }
        return values
    }

    /// listMessages of a thread or channel, as JSON objects (with Alex's parent session).
    func messages(thread: String? = nil, channel: String? = nil) async throws -> [[String: Any]] {
        let path = thread.map { "/api/v1/threads/\($0)/messages" } ?? "/api/v1/channels/\(channel ?? "")/messages"
        let token = try await sandbox.connection.provider(.parent).currentAccessToken()
        let response = try await sandbox.connection.signed.send(
            HTTPClientRequest(method: .get, url: sandbox.origin + path), accessToken: token.plainText)
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
        return object?["messages"] as? [[String: Any]] ?? []
    }

    /// Parses the one JSON object `share --json` printed.
    static func json(_ result: ProcessResult) -> [String: Any] {
        let line = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
    }

    func close() { sandbox.close() }
}

/// Small real files of well-known types, as their first bytes give them away.
enum SampleFiles {
    /// A 1x1 PNG.
    static let png: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
        0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00,
        0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE,
        0x42, 0x60, 0x82,
    ]

    /// A minimal one-page PDF.
    static let pdf = Array(
        """
        %PDF-1.4
        1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
        2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
        3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 72 72] >> endobj
        trailer << /Root 1 0 R >>
        %%EOF

        """.utf8)

    /// An empty ZIP archive (its end-of-central-directory record): a type the demo server does not accept.
    static let zip: [UInt8] = [0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18)

    static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}
