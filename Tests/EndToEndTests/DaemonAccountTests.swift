import Foundation
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// share-daemon follows the current account: a login at another server, a
/// switch with `share accounts use` and a logout reach a running daemon
/// without a restart, and `share status` says whom it serves. Two
/// `share-server` processes, `share` and `share-daemon` as processes.
@Suite("share-daemon follows the account")
struct DaemonAccountTests {
    /// `share send --text TEXT --to TARGET --queue --json`, and the share's id.
    static func queue(_ accounts: TwoAccounts, _ text: String, to target: String) throws -> String {
        let result = try accounts.share(["send", "--text", text, "--to", target, "--queue", "--json"])
        let object = TwoAccounts.json(result) as? [String: Any]
        guard result.status == 0, let id = object?["client_msg_id"] as? String else {
            throw TwoAccountsError("share send --queue failed: \(result.stdout) \(result.stderr)")
        }
        return id
    }

    /// The `daemon` object of `share status --json`.
    static func daemonStatus(_ accounts: TwoAccounts) throws -> [String: Any] {
        let status = try accounts.share(["status", "--json"])
        return (TwoAccounts.json(status) as? [String: Any])?["daemon"] as? [String: Any] ?? [:]
    }

    @Test("login at B while the daemon serves A: a share queued for B is delivered; share status names B and bob")
    func loginAtAnotherServer() async throws {
        let accounts = try TwoAccounts()
        defer { accounts.close() }
        try accounts.login(.a)
        let daemon = try accounts.startDaemon()
        defer {
            daemon.kill(SIGTERM)
            _ = daemon.finish()
        }
        #expect(daemon.waitForLine { $0.contains("share-daemon: ready") } != nil)

        try accounts.login(.b)
        let id = try Self.queue(accounts, "queued for B", to: "thread:t9")
        let sent = daemon.waitForLine(limit: .seconds(30)) { $0.contains("outbox: sent \(id)") }
        #expect(sent != nil, "the daemon did not deliver the share for B")
        #expect(try await accounts.messages(at: .b, thread: "t9").map(\.id) == [id])

        let status = try Self.daemonStatus(accounts)
        #expect(status["server"] as? String == accounts.origin(.b), "\(status)")
        #expect(status["user"] as? String == "bob", "\(status)")
        #expect(status["logged_in"] as? Bool == true)
        #expect(status["last_reached_at"] is String, "\(status)")
        let text = try accounts.share(["status"]).stdout
        #expect(text.contains("serves bob at \(accounts.origin(.b))"), "\(text)")
        #expect(text.contains("last reached"), "\(text)")
    }

    @Test("accounts use, logout and login again: the daemon follows each without a restart")
    func switchLogoutAndLoginAgain() async throws {
        let accounts = try TwoAccounts()
        defer { accounts.close() }
        try accounts.login(.b)
        try accounts.login(.a)
        let daemon = try accounts.startDaemon()
        defer {
            daemon.kill(SIGTERM)
            _ = daemon.finish()
        }
        #expect(daemon.waitForLine { $0.contains("share-daemon: ready") } != nil)

        let use = try accounts.share(["accounts", "use", accounts.origin(.b)])
        #expect(use.status == 0, "\(use.stderr)")
        let serving = daemon.waitForLine(limit: .seconds(30)) { $0.contains("now serves bob at") }
        #expect(serving?.contains(accounts.origin(.b)) == true, "\(serving ?? "no line")")
        #expect(try Self.daemonStatus(accounts)["user"] as? String == "bob")

        let out = try accounts.share(["logout"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(daemon.waitForLine(limit: .seconds(30)) { $0.contains("serves no account") } != nil)
        let idle = try Self.daemonStatus(accounts)
        #expect(idle["logged_in"] as? Bool == false, "\(idle)")
        let idleText = try accounts.share(["status"]).stdout
        #expect(idleText.contains("serves no account"), "\(idleText)")

        try accounts.login(.b)
        let id = try Self.queue(accounts, "after logging in again", to: "thread:t9")
        #expect(daemon.waitForLine(limit: .seconds(30)) { $0.contains("outbox: sent \(id)") } != nil)
        #expect(try await accounts.messages(at: .b, thread: "t9").map(\.id) == [id])
    }

    @Test("a share queued for A goes to A with A's session though the daemon serves B now")
    func shareGoesToItsOwnServer() async throws {
        let accounts = try TwoAccounts()
        defer { accounts.close() }
        try accounts.login(.b)
        try accounts.login(.a)
        let id = try Self.queue(accounts, "queued for A", to: "thread:t1")
        let use = try accounts.share(["accounts", "use", accounts.origin(.b)])
        #expect(use.status == 0, "\(use.stderr)")

        let pass = try runProcess(
            BuiltProducts.path("share-daemon"), ["--once"], environment: accounts.environment)
        #expect(pass.status == 0, "\(pass.stderr)")
        #expect(try await accounts.messages(at: .a, thread: "t1").map(\.id) == [id])
        #expect(try await accounts.messages(at: .b, thread: "t9").isEmpty)
    }
}
