import Foundation
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitSessionsInterface
import ShareKitSharedStateInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// What the shared container's `state.json` may hold, after the programs
/// have done their everyday work: only allow-listed keys, no names or ids
/// of people and not the server's address (those live in the keychain), and
/// a `state.json` of an earlier version moved over once.
@Suite("the shared state holds no names")
struct SharedStateKeysTests {
    /// Every key `state.json` may hold. A key added to the allow-list must
    /// be added here too, on purpose: the container is readable by every
    /// program of the group, so what it holds is a decision.
    static let allowedKeys: Set<String> = [
        "notify.preview_mode", "file_max_upload_bytes", "message_max_attachments", "client.share.recent_targets",
        "upload.part_size", "upload.budget", "client.push.fetch_timeout", "targets.recent",
        "counters.push_display.duration_ms", "counters.push_display.count", "counters.push.placeholder",
        "upload.accepted_content_types", "counters.push.preview_refused", "upload.digest_algorithms",
    ]

    /// The keys kept per account, each after `account.<digest>.`.
    static let accountKeys: Set<String> = [
        "targets.recent", "client.share.recent_targets", "file_max_upload_bytes", "message_max_attachments",
        "upload.part_size", "upload.accepted_content_types", "upload.digest_algorithms",
    ]

    /// Whether a key is one `state.json` may hold: a listed key, a key of
    /// an account named by a 16-digit digest, or the DPoP nonce of a server
    /// named by a 16-digit digest; never an address or a name.
    static func mayHold(_ key: String) -> Bool {
        if allowedKeys.contains(key) { return true }
        if key.hasPrefix("account.") {
            let rest = key.dropFirst("account.".count)
            return rest.prefix(16).allSatisfy { "0123456789abcdef".contains($0) }
                && rest.dropFirst(16).first == "." && accountKeys.contains(String(rest.dropFirst(17)))
        }
        guard key.hasPrefix("dpop.nonce.") else { return false }
        let digest = key.dropFirst("dpop.nonce.".count)
        return digest.count == 16 && digest.allSatisfy { "0123456789abcdef".contains($0) }
    }

    /// The keys and values of `state.json` as the file holds them.
    static func stateFile(_ fixture: ShareCLIFixture) throws -> [String: String] {
        let path = fixture.sandbox.assembly.container.rootPath + "/state.json"
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(object["values"] as? [String: String])
    }

    @Test(
        "login, a send, a queued send the daemon delivers, status: state.json keeps to the allow-list, no name, no address"
    )
    func everydayWorkKeepsToTheList() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        try fixture.sandbox.assembly.accounts.forget(at: fixture.sandbox.origin)
        let login = try fixture.share(
            ["login", "--server", fixture.sandbox.origin, "--user", "alex", "--password-stdin"],
            stdin: "alex-demo-pass\n")
        #expect(login.status == 0, "\(login.stderr)")
        let sent = try fixture.share(["send", "--text", "now", "--to", "thread:t1"])
        #expect(sent.status == 0, "\(sent.stderr)")
        _ = try fixture.queueShares(1)
        let pass = try fixture.daemon(["--once"])
        #expect(pass.status == 0, "\(pass.stderr)")
        let status = try fixture.share(["status"])
        #expect(status.stdout.contains("user: alex"), "\(status.stdout)")
        #expect(status.stdout.contains("server: \(fixture.sandbox.origin)"), "\(status.stdout)")

        let values = try Self.stateFile(fixture)
        #expect(!values.isEmpty, "the work wrote the state")
        for key in values.keys { #expect(Self.mayHold(key), "state.json holds \(key), which is not on the list") }
        let port = fixture.sandbox.origin.split(separator: ":").last.map(String.init) ?? "?"
        for (key, value) in values {
            #expect(!key.contains("127.0.0.1") && !value.contains("127.0.0.1:\(port)"), "the address in \(key)")
            #expect(!value.contains("alex"), "a name in \(key): \(value)")
        }
        #expect(
            try fixture.sandbox.assembly.accounts.current()
                == SignedInAccount(origin: fixture.sandbox.origin, username: "alex"))
    }

    @Test("an earlier version's state.json: the account is moved to the keychain once, the file rewritten without it")
    func earlierStateIsMigrated() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        try fixture.sandbox.assembly.accounts.forget(at: fixture.sandbox.origin)
        let origin = fixture.sandbox.origin
        let path = fixture.sandbox.assembly.container.rootPath + "/state.json"
        let old: [String: Any] = [
            "version": 1,
            "values": [
                "server.url": origin, "account.username": "alex", "notify.preview_mode": "names",
                "dpop.nonce.\(origin)": "nonce-1",
            ],
        ]
        try JSONSerialization.data(withJSONObject: old).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)

        let status = try fixture.share(["status"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("server: \(origin)"), "\(status.stdout)")
        #expect(status.stdout.contains("user: alex"), "\(status.stdout)")
        #expect(try Self.stateFile(fixture) == ["notify.preview_mode": "names"])
        #expect(try fixture.sandbox.assembly.accounts.current() == SignedInAccount(origin: origin, username: "alex"))
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        // The server comes from the keychain now: a send without --server reaches it.
        let sent = try fixture.share(["send", "--text", "after the move", "--to", "thread:t1"])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(try Self.stateFile(fixture).keys.allSatisfy(Self.mayHold))
    }
}
