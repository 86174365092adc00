import Foundation
public import ShareKitClientAssembly
import ShareKitHTTPInterface
import ShareKitKeychainInterface
public import ShareKitSessionsInterface
public import ShareKitSystemTesting
public import ShareKitTestSupport

/// Two real `share-server` processes, two people, and one app group (one
/// keychain, one container) that `share` and `share-daemon` use as a
/// person with an account on each server does.
///
/// Server A runs the demo seed (Alex, thread `t1` "server > Gateway >
/// resume the gateway"); server B runs ``serverBSeed`` (Bob, thread `t9`
/// "beta > Ops > deploy night", ZIP archives accepted, which A refuses).
/// Nobody is logged in at first: tests log in with ``login(_:)``.
public final class TwoAccounts: @unchecked Sendable {
    /// One of the two servers.
    public enum Side: Sendable, CustomStringConvertible {
        case a, b

        public var description: String { self == .a ? "A" : "B" }
    }

    /// Server A (demo seed, Alex).
    public let serverA: ServerProcess
    /// Server B (``serverBSeed``, Bob).
    public let serverB: ServerProcess
    /// The app group's directory (keychain, container, test files).
    public let home: TemporaryDirectory
    /// The app group's environment (file keychain, container), in English.
    public let environment: [String: String]

    /// B's seed: Bob in a space `beta` with a chat channel `Ops` and its
    /// thread `t9`; it accepts ZIP archives besides text and images.
    public static var serverBSeed: [String: Any] {
        [
            "users": [["username": "bob", "password": "bob-beta-pass"]],
            "spaces": [
                [
                    "id": "sb", "name": "beta",
                    "channels": [
                        ["id": "cb", "name": "Ops", "kind": "chat", "readers": ["bob"], "writers": ["bob"]]
                    ],
                ]
            ],
            "threads": [["id": "t9", "channel_id": "cb", "title": "deploy night"]],
            "accepted_content_types": ["text/plain", "image/png", "image/jpeg", "application/zip"],
        ]
    }

    /// The display path of B's thread `t9`.
    public static let nightPath = "beta > Ops > deploy night"
    /// The display path of A's thread `t1`.
    public static let gatewayPath = "server > Gateway > resume the gateway"

    /// Starts both servers and makes an empty app group.
    /// - Throws: when a server cannot start (the other is stopped then).
    public init() throws {
        serverA = try ServerProcess()
        do {
            serverB = try ServerProcess(seed: Self.serverBSeed)
        } catch {
            serverA.stop()
            throw error
        }
        do {
            home = try TemporaryDirectory(prefix: "two-accounts")
        } catch {
            serverA.stop()
            serverB.stop()
            throw error
        }
        environment = [
            "SHAREKIT_KEYCHAIN": "file", "SHAREKIT_KEYCHAIN_DIR": home.file("keychain"),
            "SHAREKIT_CONTAINER_DIR": home.file("container"),
        ].merging(TestLocale.english) { $1 }
    }

    /// A server's origin.
    public func origin(_ side: Side) -> String { side == .a ? serverA.origin : serverB.origin }

    /// The person with an account on a server, and the password.
    public static func person(_ side: Side) -> (user: String, password: String) {
        side == .a ? ("alex", "alex-demo-pass") : ("bob", "bob-beta-pass")
    }

    /// Runs `share <arguments>` in this app group.
    public func share(_ arguments: [String], stdin: String? = nil, environment extra: [String: String] = [:])
        throws -> ProcessResult
    {
        try runProcess(
            BuiltProducts.path("share"), arguments, environment: environment.merging(extra) { $1 }, stdin: stdin)
    }

    /// `share login` at a server as its person, the password on standard input.
    /// - Throws: ``TwoAccountsError`` when the login does not succeed.
    @discardableResult
    public func login(_ side: Side) throws -> ProcessResult {
        let person = Self.person(side)
        let result = try share(
            ["login", "--server", origin(side), "--user", person.user, "--password-stdin"],
            stdin: person.password + "\n")
        guard result.status == 0 else { throw TwoAccountsError("share login at \(side) failed: \(result.stderr)") }
        return result
    }

    /// Starts a foreground `share-daemon` in this app group (its log merged into standard output).
    public func startDaemon(_ arguments: [String] = ["--interval", "3600", "--verbose"]) throws -> HelperProcess {
        try HelperProcess(
            executable: BuiltProducts.path("share-daemon"), arguments, environment: environment, mergeErrors: true)
    }

    /// A client assembly of this app group, made now (it reads the keychain and the container afresh).
    public func assembly() throws -> ClientAssembly { try ClientAssembly(environment: environment) }

    /// The stored session of a family at a server, or nil.
    public func stored(_ role: SessionRole, at side: Side) throws -> SessionTokens? {
        try assembly().connection(to: origin(side)).storage.read(role)
    }

    /// The HTTP status of `GET /api/v1/spaces` at a server with a session's access token.
    public func spacesStatus(at side: Side, with session: SessionTokens) async throws -> Int {
        let connection = try assembly().connection(to: origin(side))
        let response = try await connection.signed.send(
            HTTPClientRequest(method: .get, url: origin(side) + "/api/v1/spaces"),
            accessToken: session.accessToken.utf8String)
        return response.status
    }

    /// The messages of a thread at a server, read with a session's access
    /// token (a session of its own when none is given: this app group's
    /// keychain is left as the test made it).
    /// - Returns: each message's `client_msg_id` and text.
    public func messages(at side: Side, thread: String) async throws -> [(id: String, text: String)] {
        let reader = try TemporaryDirectory(prefix: "two-accounts-reader")
        defer { reader.remove() }
        let assembly = try ClientAssembly(environment: [
            "SHAREKIT_KEYCHAIN": "file", "SHAREKIT_KEYCHAIN_DIR": reader.file("keychain"),
            "SHAREKIT_CONTAINER_DIR": reader.file("container"),
        ])
        let connection = try assembly.connection(to: origin(side))
        let person = Self.person(side)
        let session = try await connection.issuer.login(
            username: person.user, password: .init(utf8: person.password))
        let response = try await connection.signed.send(
            HTTPClientRequest(method: .get, url: origin(side) + "/api/v1/threads/\(thread)/messages"),
            accessToken: session.accessToken.utf8String)
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
        return (object?["messages"] as? [[String: Any]] ?? []).map {
            ($0["client_msg_id"] as? String ?? "", $0["text"] as? String ?? "")
        }
    }

    /// Parses the one JSON value `share ... --json` printed last.
    public static func json(_ result: ProcessResult) -> Any? {
        let line = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        return try? JSONSerialization.jsonObject(with: Data(line.utf8))
    }

    /// Stops both servers and removes every file.
    public func close() {
        serverA.stop()
        serverB.stop()
        home.remove()
    }
}

/// A step of ``TwoAccounts`` failed.
public struct TwoAccountsError: Error, CustomStringConvertible {
    public let description: String
    /// - Parameter description: what failed.
    public init(_ description: String) { self.description = description }
}
