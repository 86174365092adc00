import Foundation
public import ShareKitClientAssembly
import ShareKitCore
import ShareKitCryptoInterface
import ShareKitHTTPInterface
import ShareKitKeychainInterface
import ShareKitSessionsInterface
public import ShareKitSystemTesting
public import ShareKitTestSupport

/// A real `share-server` and one app group's client side against it: a
/// keychain and a container of their own (file backends in a temporary
/// directory) and the per-server client stack built by the composition root,
/// exactly as `share` and `share-daemon` build it.
///
/// The Sessions, Uploads and Messages tests each add their own helpers on
/// top; this is the part they share.
public final class ClientSandbox: @unchecked Sendable {
    /// The server process (a new one after ``restartServer(seed:)``).
    public private(set) var server: ServerProcess
    private let seed: [String: Any]?
    /// The app group's directory (keychain, container, test files).
    public let home: TemporaryDirectory
    /// `SHAREKIT_KEYCHAIN*` and `SHAREKIT_CONTAINER_DIR` of this app group,
    /// for helper processes that must share it, and an English locale
    /// (``ShareKitTestSupport/TestLocale/english``).
    public let environment: [String: String]
    /// The client composition root.
    public let assembly: ClientAssembly
    /// The client stack for the server.
    public let connection: ServerConnection
    private let logLock = NSLock()
    private var serverLog: String?

    /// Starts a server (demo seed unless given) and prepares the client side.
    /// - Parameters:
    ///   - seed: the server's seed, or nil for `demo`.
    ///   - prefix: a readable prefix for the temporary directory.
    ///   - engine: the server's database engine (SQLite unless given).
    /// - Throws: when the server cannot start or the client side cannot be built
    ///   (the server is stopped again then); `TemporaryPostgres.Unavailable`
    ///   when PostgreSQL was asked for and cannot run here.
    public init(seed: [String: Any]? = nil, prefix: String, engine: ServerEngine = .sqlite) throws {
        server = try ServerProcess(engine: engine, seed: seed)
        self.seed = seed
        do {
            home = try TemporaryDirectory(prefix: prefix)
            environment = [
                "SHAREKIT_KEYCHAIN": "file", "SHAREKIT_KEYCHAIN_DIR": home.file("keychain"),
                "SHAREKIT_CONTAINER_DIR": home.file("container"),
            ].merging(TestLocale.english) { $1 }
            assembly = try ClientAssembly(environment: environment)
            connection = try assembly.connection(to: server.origin)
        } catch {
            server.stop()
            throw error
        }
    }

    /// The server's origin.
    public var origin: String { server.origin }

    /// Stops the server (which finishes and logs every request) and returns
    /// its log; later calls return the same log.
    public func stopServer() -> String {
        logLock.lock()
        defer { logLock.unlock() }
        if let serverLog { return serverLog }
        server.stop(removeFiles: false)
        serverLog = server.log
        return serverLog ?? ""
    }

    /// Starts the server again after ``stopServer()``, on the same database
    /// and the same port, so clients (and inbox manifests) that name its
    /// origin reach it again.
    /// - Throws: ``ServerProcessError`` when it does not start (the port may have been taken).
    public func restartServer() throws {
        logLock.lock()
        defer { logLock.unlock() }
        let hostPort = origin.replacingOccurrences(of: "http://", with: "")
        server = try ServerProcess(engine: server.engine, seed: seed, directory: server.directory, listen: hostPort)
        serverLog = nil
    }

    /// Writes `size` pseudo-random bytes (xorshift, reproducible from `seed`) to a file in the home directory.
    /// - Returns: the file's path.
    /// - Throws: when the file cannot be written.
    public func writeFile(_ name: String, size: Int, seed: UInt32 = 0) throws -> String {
        var bytes = [UInt8](repeating: 0, count: size)
        var x: UInt32 = 2_463_534_242 &+ UInt32(truncatingIfNeeded: size) &+ seed
        for i in 0..<size {
            x ^= x << 13
            x ^= x >> 17
            x ^= x << 5
            bytes[i] = UInt8(truncatingIfNeeded: x)
        }
        let path = home.file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A file's SHA-256 as lowercase hex, computed independently of the code under test.
    /// - Throws: when the file cannot be read.
    public func sha256Hex(ofFile path: String) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return Hex.encode(try assembly.crypto.sha256(contentsOf: Array(data)))
    }

    /// The composite digest of a file, lowercase hex: the SHA-256 of its
    /// parts' SHA-256 digests, the parts cut at `partSize` (an empty file
    /// is one empty part), as an upload with `sha256-composite` announces it.
    public func compositeSHA256Hex(ofFile path: String, partSize: Int = 8 << 20) throws -> String {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        var digests: [UInt8] = []
        var offset = 0
        repeat {
            let end = min(bytes.count, offset + partSize)
            digests += try assembly.crypto.sha256(contentsOf: Array(bytes[offset..<end]))
            offset = end
        } while offset < bytes.count
        return Hex.encode(try assembly.crypto.sha256(contentsOf: digests))
    }

    /// Logs in as Alex with the demo password, makes the child session the
    /// way the daemon does and records the account, as `share login` and a
    /// running daemon leave an app group; on failure the sandbox is closed.
    /// - Throws: what the login throws.
    public func logInAsAlex() async throws {
        do {
            let issuer = connection.issuer
            try await issuer.login(username: "alex", password: SecretValue(utf8: "alex-demo-pass"))
            try await issuer.ensureChildSession(parent: connection.provider(.parent))
            try assembly.accounts.record(SignedInAccount(origin: origin, username: "alex"))
        } catch {
            close()
            throw error
        }
    }

    /// The texts and attachment names of a thread's or a channel's
    /// messages, read with the parent session of whoever logged in here.
    /// - Throws: when there is no session or the server cannot be asked.
    public func messages(thread: String? = nil, channel: String? = nil) async throws -> [(
        text: String, files: [String]
    )] {
        let path = thread.map { "/api/v1/threads/\($0)/messages" } ?? "/api/v1/channels/\(channel ?? "")/messages"
        let token = try await connection.provider(.parent).currentAccessToken()
        let response = try await connection.signed.send(
            HTTPClientRequest(method: .get, url: origin + path), accessToken: token.plainText)
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
        return (object?["messages"] as? [[String: Any]] ?? []).map { message in
            let files = (message["attachments"] as? [[String: Any]] ?? []).compactMap { $0["file_name"] as? String }
            return (message["text"] as? String ?? "", files)
        }
    }

    /// Stops the server and removes every file.
    public func close() {
        _ = stopServer()
        server.directory.remove()
        home.remove()
    }
}
