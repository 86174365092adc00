import Foundation
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitMessagesInterface
import ShareKitSessionsInterface
import ShareKitSharedState
import ShareKitSharedStateInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// `share logout` as a process against `share-server`.
@Suite("share logout")
struct LogoutTests {
    /// What the daemon and earlier shares leave in the shared state.
    static func fillState(_ fixture: LoginFixture) throws {
        let account = scope(fixture)
        try fixture.state.set(
            #"[{"kind":"thread","id":"thr_1","display_path":"a > b > c"}]"#,
            for: SharedStateKey.recentTargets.scoped(to: account))
        try fixture.state.storeInstanceLimits(
            InstanceLimits(
                fileMaxUploadBytes: 1000, messageMaxAttachments: 5, uploadPartSize: 100, recentTargets: 5,
                acceptedContentTypes: ["text/plain"]), of: account)
        try fixture.state.set("names", for: .previewMode)
    }

    /// Alex's account at the fixture's server, as the shared state names it.
    static func scope(_ fixture: LoginFixture) -> AccountScope {
        AccountScope(origin: fixture.origin, username: LoginFixture.user)
    }

    /// The keys of the shared state that belong to an account.
    static func accountKeys(_ fixture: LoginFixture) throws -> [String] {
        try fixture.state.snapshot().keys.filter { $0.hasPrefix("account.") }.sorted()
    }

    @Test("logout ends both sessions on the server and deletes tokens, recents, instance values and the account")
    func logoutRevokesAndDeletes() async throws {
        let fixture = try LoginFixture()
        defer { fixture.close() }
        try await fixture.loginWithChild()
        try Self.fillState(fixture)
        let parent = try #require(try fixture.stored(.parent))
        let child = try #require(try fixture.stored(.child))
        let secrets = try fixture.tokenTexts()

        let result = try fixture.share(["logout"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("ended the session"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("logged out\n"))
        for secret in secrets { #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret)) }

        let parentAnswer = try await fixture.spaces(with: parent)
        #expect(parentAnswer.status == 401 && parentAnswer.code == "session_revoked", "\(parentAnswer)")
        let childAnswer = try await fixture.spaces(with: child)
        #expect(childAnswer.status == 401 && childAnswer.code == "session_revoked", "\(childAnswer)")
        #expect(try fixture.stored(.parent) == nil)
        #expect(try fixture.stored(.child) == nil)
        #expect(try Self.accountKeys(fixture) == [], "the account's recent targets and limits are gone")
        #expect(fixture.state.instanceLimits(of: Self.scope(fixture)) == nil)
        for key in SharedStateKey.instanceKeys { #expect(try fixture.state.value(for: key) == nil, "\(key)") }
        #expect(try fixture.sandbox.assembly.accounts.current() == nil)
    }

    @Test("the server is down: everything is deleted here, exit 0, and the output says the server was not told")
    func serverStopped() async throws {
        let fixture = try LoginFixture()
        defer { fixture.close() }
        try await fixture.loginWithChild()
        try Self.fillState(fixture)
        _ = fixture.sandbox.stopServer()

        let result = try fixture.share(["logout", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = LoginFixture.json(result)
        #expect(object["server_result"] as? String == "unreachable")
        #expect(
            Set(object["deleted"] as? [String] ?? []) == [
                "parent_tokens", "child_tokens", "recent_targets", "instance_values", "account",
            ])
        #expect(try fixture.stored(.parent) == nil)
        #expect(try fixture.stored(.child) == nil)
        #expect(try Self.accountKeys(fixture) == [])
        #expect(fixture.state.instanceLimits(of: Self.scope(fixture)) == nil)
        #expect(try fixture.sandbox.assembly.accounts.current() == nil)

        let text = try fixture.share(["logout", "--server", fixture.origin])
        #expect(text.status == 0)
        #expect(text.stdout.contains("no session was stored"), "nothing left to tell: \(text.stdout)")
    }

    @Test("the server is down and the text output says so")
    func serverStoppedText() async throws {
        let fixture = try LoginFixture()
        defer { fixture.close() }
        try await fixture.loginWithChild()
        _ = fixture.sandbox.stopServer()
        let result = try fixture.share(["logout"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("could not reach the server at \(fixture.origin)"), "\(result.stdout)")
        #expect(result.stdout.contains("deleted the tokens of both sessions"))
        #expect(try fixture.stored(.parent) == nil)
    }
}
