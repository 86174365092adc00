import Foundation
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitKeychainInterface
import ShareKitSessionsInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// Several accounts on one device: `share login` to a second server keeps
/// the first, `share accounts` lists and switches them, `share logout` ends
/// one and `share logout --all` every one. Two `share-server` processes,
/// `share` as a process.
@Suite("share accounts, login to a second server, logout --all")
struct AccountsTests {
    /// The accounts of `share accounts --json`, by server.
    static func accountsByServer(_ result: ProcessResult) -> [String: [String: Any]] {
        let object = TwoAccounts.json(result) as? [String: Any]
        var found: [String: [String: Any]] = [:]
        for account in object?["accounts"] as? [[String: Any]] ?? [] {
            if let server = account["server"] as? String { found[server] = account }
        }
        return found
    }

    /// The keychain's session items (`session.*`), by the server they belong to.
    static func sessionScopes(_ accounts: TwoAccounts) throws -> Set<String> {
        let keys = try accounts.assembly().secretStore.keys(accessGroup: ClientAssembly.accessGroup)
        return Set(keys.filter { $0.service.hasPrefix("session.") }.map(\.scope))
    }

    @Test("login to B keeps A; share accounts lists both with the current one; accounts use A switches back")
    func secondLoginKeepsTheFirst() async throws {
        let accounts = try TwoAccounts()
        defer { accounts.close() }
        try accounts.login(.a)
        let parentA = try #require(try accounts.stored(.parent, at: .a))
        try accounts.login(.b)

        let listed = try accounts.share(["accounts", "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let found = Self.accountsByServer(listed)
        #expect(Set(found.keys) == [accounts.origin(.a), accounts.origin(.b)], "\(listed.stdout)")
        #expect(found[accounts.origin(.a)]?["user"] as? String == "alex")
        #expect(found[accounts.origin(.b)]?["user"] as? String == "bob")
        #expect(found[accounts.origin(.a)]?["current"] as? Bool == false)
        #expect(found[accounts.origin(.b)]?["current"] as? Bool == true)
        #expect(found[accounts.origin(.a)]?["session"] as? String == "ok", "\(listed.stdout)")
        #expect(found[accounts.origin(.b)]?["session"] as? String == "ok")
        #expect(try await accounts.spacesStatus(at: .a, with: parentA) == 200, "A's session still works")

        let text = try accounts.share(["accounts"])
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("* ") && $0.contains(accounts.origin(.b)) && $0.contains("bob") })
        #expect(lines.contains { $0.hasPrefix("  ") && $0.contains(accounts.origin(.a)) && $0.contains("alex") })

        let use = try accounts.share(["accounts", "use", accounts.origin(.a)])
        #expect(use.status == 0, "\(use.stderr)")
        #expect(use.stdout.contains("alex at \(accounts.origin(.a))"), "\(use.stdout)")
        let sent = try accounts.share(["send", "--text", "after the switch", "--to", "thread:t1"])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(try await accounts.messages(at: .a, thread: "t1").map(\.text) == ["after the switch"])

        let unknown = try accounts.share(["accounts", "use", "http://127.0.0.1:9"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no account for http://127.0.0.1:9"), "\(unknown.stderr)")
        let nowCurrent = Self.accountsByServer(try accounts.share(["accounts", "--json"]))
        #expect(nowCurrent[accounts.origin(.a)]?["current"] as? Bool == true, "a refused switch changes nothing")
    }

    @Test("share logout ends the current account only; the other stays listed and working")
    func logoutKeepsTheOthers() async throws {
        let accounts = try TwoAccounts()
        defer { accounts.close() }
        try accounts.login(.a)
        try accounts.login(.b)
        let parentA = try #require(try accounts.stored(.parent, at: .a))

        let out = try accounts.share(["logout"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("share accounts use"), "says how to go on with A: \(out.stdout)")
        #expect(try accounts.stored(.parent, at: .b) == nil)
        #expect(try accounts.stored(.parent, at: .a) != nil)
        #expect(try await accounts.spacesStatus(at: .a, with: parentA) == 200)
        let found = Self.accountsByServer(try accounts.share(["accounts", "--json"]))
        #expect(Set(found.keys) == [accounts.origin(.a)])
        #expect(found[accounts.origin(.a)]?["current"] as? Bool == false, "no account was chosen for the person")
    }

    @Test("logout --all: A's session revoked on its server, B's (unreachable) removed here; the output says which")
    func logoutAll() async throws {
        let accounts = try TwoAccounts()
        defer { accounts.close() }
        try accounts.login(.a)
        try accounts.login(.b)
        let parentA = try #require(try accounts.stored(.parent, at: .a))
        accounts.serverB.stop(removeFiles: false)

        let result = try accounts.share(["logout", "--all", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(TwoAccounts.json(result) as? [String: Any], "\(result.stdout)")
        #expect(object["status"] as? String == "logged_out")
        var outcomes: [String: String] = [:]
        for account in object["accounts"] as? [[String: Any]] ?? [] {
            outcomes[account["server"] as? String ?? "?"] = account["server_result"] as? String
        }
        #expect(outcomes == [accounts.origin(.a): "revoked", accounts.origin(.b): "unreachable"], "\(object)")
        #expect(try await accounts.spacesStatus(at: .a, with: parentA) == 401, "A's session is revoked")
        #expect(try Self.sessionScopes(accounts).isEmpty, "no session item is left in the keychain")
        let listed = try accounts.share(["accounts", "--json"])
        #expect(Self.accountsByServer(listed).isEmpty, "\(listed.stdout)")
    }

    @Test("logout --all in words: each server named with what became of its session")
    func logoutAllText() async throws {
        let accounts = try TwoAccounts()
        defer { accounts.close() }
        try accounts.login(.a)
        try accounts.login(.b)
        accounts.serverB.stop(removeFiles: false)

        let result = try accounts.share(["logout", "--all"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("the server at \(accounts.origin(.a)) ended the session"), "\(result.stdout)")
        #expect(result.stdout.contains("could not reach the server at \(accounts.origin(.b))"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("logged out of 2 accounts\n"), "\(result.stdout)")
    }
    @Test("share inbox retry --server B of a share made for A is refused and the share kept; without it, it goes to A")
    func retryGoesToItsOwnServer() async throws {
        let accounts = try TwoAccounts()
        defer { accounts.close() }
        try accounts.login(.b)
        try accounts.login(.a)
        let queued = try accounts.share(["send", "--text", "made for A", "--to", "thread:t1", "--queue", "--json"])
        let id = try #require((TwoAccounts.json(queued) as? [String: Any])?["client_msg_id"] as? String)

        let wrong = try accounts.share(["inbox", "retry", id, "--server", accounts.origin(.b)])
        #expect(wrong.status == 2, "\(wrong.stdout) \(wrong.stderr)")
        #expect(wrong.stderr.contains("was made for \(accounts.origin(.a))"), "\(wrong.stderr)")
        let right = try accounts.share(["inbox", "retry", id])
        #expect(right.status == 0, "the share was lost: \(right.stderr)")
        #expect(try await accounts.messages(at: .a, thread: "t1").map(\.id) == [id])
    }
}
