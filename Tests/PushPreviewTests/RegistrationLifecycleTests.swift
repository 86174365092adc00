import Foundation
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitHTTPInterface
import ShareKitPushPreview
import ShareKitPushPreviewInterface
import ShareKitSessionsInterface
import ShareKitSharedStateInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// The push registration's lifecycle with real processes: a registration
/// the server no longer takes (its session revoked and replaced, the
/// registration removed) is deleted and made again, so the next push is
/// shown in full instead of the placeholder.
@Suite("push registration lifecycle", .serialized)
struct RegistrationLifecycleTests {
    @Test("admin revoke-session, then share login: the daemon registers again and the next push renders in full")
    func revokedSessionThenLogin() async throws {
        let fixture = try await PushFixture()
        defer { fixture.close() }
        try fixture.registrations.delete(instance: fixture.instance)
        let record = fixture.sandbox.home.file("notifications")
        let notify = try StandIns.notifier(fixture, record: record, click: false)
        let daemon = try PushDaemon(fixture, environment: [NotificationPresenter.commandVariable: notify])
        defer { daemon.stop() }
        #expect(daemon.wait { $0.contains("push: registered for push") } != nil)
        let first = try #require(try fixture.registrations.registration(instance: fixture.instance))
        let revoked = try #require(try fixture.sandbox.connection.storage.read(.parent)).sessionID
        #expect(first.sessionID == revoked, "the registration records the session it was made with")

        let revoke = try fixture.sandbox.server.admin(["revoke-session", "--session", revoked])
        #expect(revoke.status == 0, "\(revoke.stderr)")
        let login = try runProcess(
            BuiltProducts.path("share"),
            ["login", "--server", fixture.origin, "--user", "alex", "--password-stdin"],
            environment: fixture.sandbox.environment, stdin: "alex-demo-pass\n")
        #expect(login.status == 0, "\(login.stdout) \(login.stderr)")
        let current = try #require(try fixture.sandbox.connection.storage.read(.parent)).sessionID
        #expect(current != revoked)

        #expect(daemon.wait { $0.contains("push: registered") } != nil, "no new registration after the login")
        let second = try #require(try fixture.registrations.registration(instance: fixture.instance))
        #expect(second.registrationID != first.registrationID)
        #expect(second.sessionID == current)

        let (status, _) = try await fixture.call(.post, "/api/v1/push/test", json: ["message_id": fixture.messageID])
        #expect(status == 202)
        let rendered = daemon.wait { $0.contains("push: rendered notification") }
        #expect(rendered?.contains("(preview)") == true, "\(rendered ?? "no line")")
        #expect(daemon.wait { $0.contains("closed without a click") } != nil)
        let shown = try #require(StandIns.calls(record).last)
        #expect(shown.last == "\(PushFixture.channelName): \(PushFixture.excerpt)", "\(shown)")
    }

    @Test(
        "a registration made with a session that ended: after the new login, share-daemon --once registers again with the new session"
    )
    func registrationOfAnEndedSession() async throws {
        let fixture = try await PushFixture()
        defer { fixture.close() }
        let first = try #require(try fixture.registrations.registration(instance: fixture.instance))
        let revoked = try #require(try fixture.sandbox.connection.storage.read(.parent)).sessionID
        #expect(first.sessionID == revoked)
        #expect(try fixture.sandbox.server.admin(["revoke-session", "--session", revoked]).status == 0)
        let login = try runProcess(
            BuiltProducts.path("share"),
            ["login", "--server", fixture.origin, "--user", "alex", "--password-stdin"],
            environment: fixture.sandbox.environment, stdin: "alex-demo-pass\n")
        #expect(login.status == 0, "\(login.stdout) \(login.stderr)")
        #expect(try fixture.notify(fixture.payload()).stdout.contains("status 401"), "the old registration is dead")

        // --once reads no event feed: the recorded session alone tells.
        try fixture.state.set(nil, for: .previewRefusedCount)
        let pass = try runProcess(
            BuiltProducts.path("share-daemon"), ["--once"], environment: fixture.sandbox.environment)
        #expect(pass.status == 0, "\(pass.stderr)")
        #expect(pass.stderr.contains("made with another session"), "\(pass.stderr)")
        let second = try #require(try fixture.registrations.registration(instance: fixture.instance))
        #expect(second.sessionID == (try fixture.sandbox.connection.storage.read(.parent))?.sessionID)
        #expect(PushFixture.json(try fixture.notify(fixture.payload()))["outcome"] as? String == "preview")
    }

    @Test(
        "a registration the server removed: that push keeps the placeholder, the daemon registers again at once, the next renders in full"
    )
    func removedRegistration() async throws {
        let fixture = try await PushFixture()
        defer { fixture.close() }
        try fixture.registrations.delete(instance: fixture.instance)
        let notify = try StandIns.notifier(fixture, record: fixture.sandbox.home.file("notifications"), click: false)
        let daemon = try PushDaemon(fixture, environment: [NotificationPresenter.commandVariable: notify])
        defer { daemon.stop() }
        #expect(daemon.wait { $0.contains("push: registered for push") } != nil)
        let first = try #require(try fixture.registrations.registration(instance: fixture.instance))
        let (removed, _) = try await fixture.call(.delete, "/api/v1/push/registrations/\(first.registrationID)")
        #expect(removed == 204)

        _ = try await fixture.call(.post, "/api/v1/push/test", json: ["message_id": fixture.messageID])
        let refused = daemon.wait { $0.contains("push: rendered notification") }
        #expect(refused?.contains("(placeholder: status 401)") == true, "\(refused ?? "no line")")
        let again = daemon.wait { $0.contains("push: registered") }
        #expect(again?.contains("refused") == true, "\(again ?? "no line")")
        let second = try #require(try fixture.registrations.registration(instance: fixture.instance))
        #expect(second.registrationID != first.registrationID)

        _ = try await fixture.call(.post, "/api/v1/push/test", json: ["message_id": fixture.messageID])
        let rendered = daemon.wait { $0.contains("push: rendered notification") }
        #expect(rendered?.contains("(preview)") == true, "\(rendered ?? "no line")")
    }

    @Test(
        "share notify counts a refused preview token; the daemon's next pass registers again, and share notify renders in full"
    )
    func notifierRefusalReachesDaemon() async throws {
        let fixture = try await PushFixture()
        defer { fixture.close() }
        let first = try #require(try fixture.registrations.registration(instance: fixture.instance))
        let (removed, _) = try await fixture.call(.delete, "/api/v1/push/registrations/\(first.registrationID)")
        #expect(removed == 204)

        let refused = PushFixture.json(try fixture.notify(fixture.payload()))
        #expect(refused["failure"] as? String == "status 401", "\(refused)")
        #expect(try fixture.state.integer(for: .previewRefusedCount) == 1)
        #expect(
            try fixture.registrations.registration(instance: fixture.instance) == first,
            "the notifier leaves the keychain to the app")

        let pass = try runProcess(
            BuiltProducts.path("share-daemon"), ["--once"], environment: fixture.sandbox.environment)
        #expect(pass.status == 0, "\(pass.stderr)")
        #expect(pass.stderr.contains("registered again") && pass.stderr.contains("refused"), "\(pass.stderr)")
        #expect(try fixture.state.integer(for: .previewRefusedCount) ?? 0 == 0, "the daemon took the count")
        let second = try #require(try fixture.registrations.registration(instance: fixture.instance))
        #expect(second.registrationID != first.registrationID)
        let shown = PushFixture.json(try fixture.notify(fixture.payload()))
        #expect(shown["outcome"] as? String == "preview", "\(shown)")

        let unchanged = try runProcess(
            BuiltProducts.path("share-daemon"), ["--once"], environment: fixture.sandbox.environment)
        #expect(!unchanged.stderr.contains("registered"), "a working registration is kept: \(unchanged.stderr)")
    }
}
