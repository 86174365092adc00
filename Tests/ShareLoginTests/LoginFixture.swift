import Foundation
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitHTTPInterface
import ShareKitKeychainInterface
import ShareKitSessions
import ShareKitSessionsInterface
import ShareKitSharedState
import ShareKitSharedStateInterface
import ShareKitSystemTesting
import ShareKitTestSupport

/// A real `share-server` and an app group nobody is logged in to yet, with
/// the `share` program run as a separate process the way a person runs it.
final class LoginFixture: @unchecked Sendable {
    static let user = "alex"
    static let password = "alex-demo-pass"

    let sandbox: ClientSandbox
    var origin: String { sandbox.origin }
    var state: any SharedStateStore { sandbox.assembly.container.state }

    init() throws {
        sandbox = try ClientSandbox(prefix: "share-login-test")
    }

    /// Runs `share <arguments>` with this app group's environment.
    func share(_ arguments: [String], stdin: String? = nil) throws -> ProcessResult {
        try runProcess(BuiltProducts.path("share"), arguments, environment: sandbox.environment, stdin: stdin)
    }

    /// `share login` as Alex with the password on standard input.
    func login(password: String = LoginFixture.password) throws -> ProcessResult {
        try share(
            ["login", "--server", origin, "--user", Self.user, "--password-stdin"], stdin: password + "\n")
    }

    /// Logs in through the CLI and makes the child session the way the daemon does.
    func loginWithChild() async throws {
        let result = try login()
        guard result.status == 0 else { throw FixtureError("share login failed: \(result.stderr)") }
        try await sandbox.connection.issuer.ensureChildSession(parent: sandbox.connection.provider(.parent))
    }

    /// The stored session of a family.
    func stored(_ role: SessionRole) throws -> SessionTokens? { try sandbox.connection.storage.read(role) }

    /// Every token text the keychain holds now (to scan output for them).
    func tokenTexts() throws -> [String] {
        try [SessionRole.parent, .child].compactMap { try stored($0) }.flatMap {
            [$0.accessToken.utf8String ?? "", $0.refreshToken.utf8String ?? ""]
        }
    }

    /// The status and problem code of `GET /api/v1/spaces` with an access token.
    func spaces(with session: SessionTokens) async throws -> (status: Int, code: String?) {
        let response = try await sandbox.connection.signed.send(
            HTTPClientRequest(method: .get, url: origin + "/api/v1/spaces"),
            accessToken: session.accessToken.utf8String)
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
        return (response.status, object?["code"] as? String)
    }

    /// Parses the one JSON object `share ... --json` printed last.
    static func json(_ result: ProcessResult) -> [String: Any] {
        let line = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
    }

    func close() { sandbox.close() }
}

/// A fixture step failed.
struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
