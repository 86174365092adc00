import Foundation
import ShareKitHTTPInterfaceTesting
import ShareKitKeychainInterface
import ShareKitSessions
import ShareKitSessionsInterface
import ShareKitSessionsInterfaceTesting
import ShareKitSharedStateInterfaceTesting
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// Refresh across processes that share one keychain group and one container,
/// each a `ShareTestHelper session-token` process (ClientAssembly, libcurl
/// with DPoP, a RefreshingTokenProvider), against a real `share-server`.
@Suite("sessions: single flight across processes")
struct CrossProcessRefreshTests {
    @Test("8 processes that all saw the expired child token refresh exactly once, with no reuse")
    func eightProcessesOneRefresh() async throws {
        let fixture = try SessionFixture()
        defer { fixture.close() }
        try await fixture.signIn()
        let before = try #require(try fixture.storage.read(.child))
        try fixture.markExpired(.child)

        // Holding the family's lock makes every helper read the expired pair
        // and queue up on the lock before any of them can refresh.
        let holder = try fixture.holdRefreshLock(.child)
        let helpers = try (0..<8).map { _ in try fixture.helper(.child, ["--check"]) }
        for helper in helpers {
            #expect(helper.waitForLine { $0 == "event waiting-for-lock" } != nil)
        }
        holder.writeLine("release")
        #expect(holder.finish().status == 0)
        let outcomes = helpers.map { $0.finish() }

        for outcome in outcomes {
            #expect(outcome.status == 0, "helper failed: \(outcome.stdout) \(outcome.stderr)")
            #expect(outcome.stdout.contains("check 200"), "each process got a working token")
        }
        #expect(outcomes.filter { $0.stdout.contains("event persisted") }.count == 1)
        #expect(outcomes.filter { $0.stdout.contains("event skipped") }.count == 7)
        let after = try #require(try fixture.storage.read(.child))
        #expect(after.sessionID == before.sessionID && after.refreshToken != before.refreshToken)
        #expect(try await fixture.reuseAudit().isEmpty)
        try expectNoTokens(in: outcomes, before, after)
        let log = fixture.stopServer()
        #expect(SessionFixture.refreshCount(log) == 1)
    }

    @Test("8 processes let go at once: still exactly one refresh, all working, no reuse")
    func eightProcessesAtOnce() async throws {
        let fixture = try SessionFixture()
        defer { fixture.close() }
        try await fixture.signIn()
        try fixture.markExpired(.child)

        let helpers = try (0..<8).map { _ in try fixture.helper(.child, ["--wait-go", "--check"]) }
        for helper in helpers { #expect(helper.waitForLine { $0 == "ready" } != nil) }
        for helper in helpers { helper.writeLine("go") }
        let outcomes = helpers.map { $0.finish() }

        for outcome in outcomes {
            #expect(outcome.status == 0, "helper failed: \(outcome.stdout) \(outcome.stderr)")
            #expect(outcome.stdout.contains("check 200"))
        }
        #expect(outcomes.filter { $0.stdout.contains("event persisted") }.count == 1)
        #expect(try await fixture.reuseAudit().isEmpty)
        #expect(SessionFixture.refreshCount(fixture.stopServer()) == 1)
    }

    @Test("killed after persisting the new pair and before using it: the next process uses the stored pair, no reuse")
    func killBetweenPersistAndUse() async throws {
        let fixture = try SessionFixture()
        defer { fixture.close() }
        try await fixture.signIn()
        let before = try #require(try fixture.storage.read(.child))
        try fixture.markExpired(.child)

        let victim = try fixture.helper(.child, ["--pause-after-persist", "--check"])
        #expect(victim.waitForLine { $0 == "paused" } != nil)
        // The new refresh token is on disk before the new access token was used.
        let onDisk = try #require(try fixture.storage.read(.child))
        #expect(onDisk.refreshToken != before.refreshToken)
        #expect(onDisk.accessToken != before.accessToken)
        victim.kill(SIGKILL)
        let killed = victim.finish()
        #expect(killed.status == 128 + SIGKILL)
        #expect(!killed.stdout.contains("token "), "the victim never handed out the new token")

        // Recovery: the next process finds a fresh pair and uses it as stored (its lock was freed by the kernel).
        let next = try fixture.helper(.child, ["--check"]).finish()
        #expect(next.status == 0, "next failed: \(next.stdout) \(next.stderr)")
        #expect(next.stdout.contains("check 200"))
        #expect(!next.stdout.contains("event"), "no refresh was needed")
        #expect(try fixture.storage.read(.child) == onDisk)

        // The stored refresh token is the live one: refreshing with it works.
        try fixture.markExpired(.child)
        let later = try fixture.helper(.child, ["--check"]).finish()
        #expect(later.status == 0, "later failed: \(later.stdout) \(later.stderr)")
        #expect(later.stdout.contains("event persisted") && later.stdout.contains("check 200"))
        #expect(try await fixture.reuseAudit().isEmpty)
        try expectNoTokens(in: [killed, next, later], before, onDisk)
        #expect(SessionFixture.refreshCount(fixture.stopServer()) == 2)
    }

    @Test("the daemon refreshes the parent and several CLI processes the child at the same moment; no reuse")
    func idT16ParentAndChildrenAtOnce() async throws {
        // With nonces required, so the refreshes also go through the DPoP nonce repetition.
        let fixture = try SessionFixture(seed: [
            "users": [["username": SessionFixture.username, "password": SessionFixture.password]],
            "dpop": ["require_nonce": true],
        ])
        defer { fixture.close() }
        try await fixture.signIn()
        let parentBefore = try #require(try fixture.storage.read(.parent))
        let childBefore = try #require(try fixture.storage.read(.child))
        try fixture.markExpired(.parent)
        try fixture.markExpired(.child)

        // Both families' locks held while the daemon and three CLI runs queue
        // up, then let go together: both refreshes are in flight at once.
        let parentLock = try fixture.holdRefreshLock(.parent)
        let childLock = try fixture.holdRefreshLock(.child)
        let daemon = try fixture.helper(.parent, ["--check"])
        let clis = try (0..<3).map { _ in try fixture.helper(.child, ["--check"]) }
        for helper in [daemon] + clis {
            #expect(helper.waitForLine { $0 == "event waiting-for-lock" } != nil)
        }
        parentLock.writeLine("release")
        childLock.writeLine("release")
        _ = parentLock.finish()
        _ = childLock.finish()
        let daemonOutcome = daemon.finish()
        let cliOutcomes = clis.map { $0.finish() }

        for outcome in [daemonOutcome] + cliOutcomes {
            #expect(outcome.status == 0, "helper failed: \(outcome.stdout) \(outcome.stderr)")
            #expect(outcome.stdout.contains("check 200"), "no session was revoked")
        }
        #expect(daemonOutcome.stdout.contains("event persisted \(parentBefore.sessionID)"))
        #expect(cliOutcomes.filter { $0.stdout.contains("event persisted \(childBefore.sessionID)") }.count == 1)
        #expect(try fixture.storage.read(.parent)?.refreshToken != parentBefore.refreshToken)
        #expect(try fixture.storage.read(.child)?.refreshToken != childBefore.refreshToken)
        #expect(try await fixture.reuseAudit().isEmpty)
        let log = fixture.stopServer()
        #expect(SessionFixture.refreshCount(log, status: 200) == 2, "one refresh per family")
    }

    /// No helper printed either token of either pair.
    private func expectNoTokens(
        in outcomes: [HelperProcess.Outcome], _ pairs: SessionTokens...
    ) throws {
        let secrets = pairs.flatMap { [$0.accessToken.utf8String, $0.refreshToken.utf8String] }.compactMap { $0 }
        for outcome in outcomes {
            let text = outcome.stdout + outcome.stderr
            #expect(!secrets.contains { text.contains($0) }, "a helper printed a token")
        }
    }
}
