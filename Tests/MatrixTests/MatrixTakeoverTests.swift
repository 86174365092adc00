import Foundation
import ShareKitClientAssembly
import ShareKitKeychainInterface
import ShareKitSessionsInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// Exactly once across the CLI's and the daemon's devices, and the failures
/// that keep a share for the daemon: the CLI's answer lost (a proxy forwards
/// the send to Synapse and holds the answer back), a homeserver error, and
/// an access token the homeserver no longer knows.
@Suite(.serialized) struct MatrixTakeoverTests {
    /// `share`'s environment with every request through `proxy`.
    static func environment(_ fixture: MatrixShareFixture, proxy: HoldingProxy) -> [String: String] {
        fixture.environment.merging(["http_proxy": proxy.origin, "no_proxy": "", "NO_PROXY": "", "HTTP_PROXY": ""]) {
            $1
        }
    }

    /// Runs `share-daemon --once` (straight to Synapse).
    static func daemonPass(_ fixture: MatrixShareFixture) throws -> ProcessResult {
        try runProcess(BuiltProducts.path("share-daemon"), ["--once"], environment: fixture.environment)
    }

    /// The bodies of the room's messages.
    static func bodies(_ rooms: MatrixSendTests.Rooms) throws -> [String] {
        try rooms.sam.messages(in: rooms.team).compactMap { ($0["content"] as? [String: Any])?["body"] as? String }
    }

    /// `share send --text text` into the team room whose answer never
    /// reaches the CLI: a proxy forwards the send to Synapse, which stores
    /// the event, and holds the answer back until the CLI is interrupted.
    static func sendWithTheAnswerLost(_ rooms: MatrixSendTests.Rooms, text: String) throws -> HelperProcess.Outcome {
        let proxy = try HoldingProxy([.init("PUT", "/_matrix/client/v3/rooms/", .hold)])
        defer { proxy.stop() }
        let process = try HelperProcess(
            executable: BuiltProducts.path("share"),
            ["send", "--text", text, "--to", rooms.team, "--undo-window", "0"],
            environment: Self.environment(rooms.fixture, proxy: proxy), mergeErrors: true)
        // Synapse stored the event and answered; the answer waits in the proxy.
        #expect(proxy.waitUntilHeld() == 200)
        process.kill(SIGINT)
        return process.finish()
    }

    @Test func answerLostBetweenTheCLIAndSynapseEndsWithOneEventAfterTheDaemonsTakeover() throws {
        let rooms = try MatrixSendTests.Rooms()
        defer { rooms.fixture.close() }
        let outcome = try Self.sendWithTheAnswerLost(rooms, text: "sent while the answer was lost")
        #expect(outcome.status == 130, "\(outcome.stdout)")
        #expect(outcome.stdout.contains("kept for share-daemon"), "\(outcome.stdout)")
        #expect(try Self.bodies(rooms) == ["sent while the answer was lost"])

        // The daemon is another device: its transaction ids are its own, so
        // only the share id in the room's timeline keeps it from sending again.
        let pass = try Self.daemonPass(rooms.fixture)
        #expect(pass.status == 0, "\(pass.stderr)")
        #expect(pass.stderr.contains("sent "), "\(pass.stderr)")
        #expect(try Self.bodies(rooms) == ["sent while the answer was lost"])
        let again = try Self.daemonPass(rooms.fixture)
        #expect(again.status == 0)
        #expect(try Self.bodies(rooms) == ["sent while the answer was lost"])
    }

    @Test func aTakeoverFindsTheCLIsEventBehindMoreThanAPageOfNewerMessages() throws {
        let rooms = try MatrixSendTests.Rooms()
        defer { rooms.fixture.close() }
        // Synapse stored the event; the CLI never hears of it and keeps the share.
        let outcome = try Self.sendWithTheAnswerLost(rooms, text: "sent before the room got busy")
        #expect(outcome.stdout.contains("kept for share-daemon"), "\(outcome.stdout)")
        // The room moves on before the daemon takes over (a daemon whose
        // backoff grew while the homeserver was away): more messages than
        // one page of the room's timeline (100 events) arrive after the event.
        for n in 0..<120 { _ = try rooms.sam.say("chatter \(n)", in: rooms.team) }
        let pass = try Self.daemonPass(rooms.fixture)
        #expect(pass.status == 0, "\(pass.stderr)")
        let bodies = try rooms.sam.allMessages(in: rooms.team).compactMap {
            ($0["content"] as? [String: Any])?["body"] as? String
        }
        #expect(bodies.filter { $0 == "sent before the room got busy" }.count == 1, "sent again by the daemon")
        #expect(bodies.count == 121, "\(bodies.count) messages")
    }

    @Test func aHomeserverErrorKeepsTheShareAndTheDaemonSendsItOnce() throws {
        let rooms = try MatrixSendTests.Rooms()
        defer { rooms.fixture.close() }
        let proxy = try HoldingProxy([
            .init("PUT", "/_matrix/client/v3/rooms/", .answer(status: 502, body: "{\"errcode\":\"M_UNKNOWN\"}"))
        ])
        defer { proxy.stop() }
        let sent = try runProcess(
            BuiltProducts.path("share"), ["send", "--text", "sent after the outage", "--to", rooms.team],
            environment: Self.environment(rooms.fixture, proxy: proxy))
        #expect(sent.status != 0)
        #expect((sent.stdout + sent.stderr).contains("share-daemon"), "\(sent.stdout) \(sent.stderr)")
        #expect(try Self.bodies(rooms).isEmpty)
        let pass = try Self.daemonPass(rooms.fixture)
        #expect(pass.status == 0, "\(pass.stderr)")
        #expect(try Self.bodies(rooms) == ["sent after the outage"])
    }

    @Test func aShareMadeWhileSynapseIsStoppedIsSentOnceByTheDaemonAfterItStarts() throws {
        // A homeserver of this test's own: stopping the shared one would fail the others.
        let server = try TemporarySynapse()
        defer { server.stop() }
        let rooms = try MatrixSendTests.Rooms(server: server)
        defer { rooms.fixture.close() }
        server.pause()
        let sent = try rooms.fixture.share(["send", "--text", "written during the outage", "--to", rooms.team])
        #expect(sent.status != 0)
        #expect((sent.stdout + sent.stderr).contains("share-daemon"), "\(sent.stdout) \(sent.stderr)")
        try server.resume()
        #expect(try Self.bodies(rooms).isEmpty)
        let pass = try Self.daemonPass(rooms.fixture)
        #expect(pass.status == 0, "\(pass.stderr)")
        #expect(try Self.bodies(rooms) == ["written during the outage"])
        _ = try Self.daemonPass(rooms.fixture)
        #expect(try Self.bodies(rooms) == ["written during the outage"])
    }

    @Test func theRunningDaemonSendsQueuedSharesAndAsksNothingOnlyAShareKitServerHas() throws {
        let rooms = try MatrixSendTests.Rooms()
        defer { rooms.fixture.close() }
        let daemon = try HelperProcess(
            executable: BuiltProducts.path("share-daemon"), [], environment: rooms.fixture.environment,
            mergeErrors: true)
        #expect(daemon.waitForLine { $0.contains("share-daemon: ready") } != nil)
        let queued = try rooms.fixture.share(["send", "--queue", "--text", "queued for the daemon", "--to", rooms.team])
        #expect(queued.status == 0, "\(queued.stderr)")
        let deadline = ContinuousClock.now + .seconds(60)
        var bodies: [String] = []
        while ContinuousClock.now < deadline {
            bodies = try Self.bodies(rooms)
            if !bodies.isEmpty { break }
            // A poll interval, not synchronisation: the loop ends on the event.
            Thread.sleep(forTimeInterval: 0.2)
        }
        #expect(bodies == ["queued for the daemon"])
        daemon.kill(SIGTERM)
        let outcome = daemon.finish()
        #expect(outcome.status == 0, "\(outcome.stdout)")
        #expect(!outcome.stdout.contains("event feed"), "\(outcome.stdout)")
        #expect(!outcome.stdout.contains("push:"), "\(outcome.stdout)")
    }

    @Test func aRateLimitKeepsTheShareWithTheHomeserversWait() throws {
        let rooms = try MatrixSendTests.Rooms()
        defer { rooms.fixture.close() }
        let limited = #"{"errcode":"M_LIMIT_EXCEEDED","error":"Too Many Requests","retry_after_ms":120000}"#
        let proxy = try HoldingProxy([.init("PUT", "/_matrix/client/v3/rooms/", .answer(status: 429, body: limited))])
        defer { proxy.stop() }
        let sent = try runProcess(
            BuiltProducts.path("share"), ["send", "--text", "later, please", "--to", rooms.team],
            environment: Self.environment(rooms.fixture, proxy: proxy))
        let output = sent.stdout + sent.stderr
        #expect(sent.status != 0)
        #expect(output.contains("the server is busy; it asked to wait 120 seconds"), "\(output)")
        #expect(output.contains("share-daemon"), "\(output)")
        #expect(try Self.bodies(rooms).isEmpty)
    }

    @Test func anAccessTokenTheHomeserverNoLongerKnowsIsRefreshedWithoutANewLogin() throws {
        let rooms = try MatrixSendTests.Rooms()
        defer { rooms.fixture.close() }
        let assembly = try ClientAssembly(environment: rooms.fixture.environment)
        let storage = assembly.sessionStorage(at: rooms.fixture.server.origin)
        var child = try #require(try storage.read(.child))
        let device = child.sessionID
        child.accessToken = SecretValue(utf8: "syt_not_a_token_the_server_knows")
        try storage.write(child, for: .child)

        let sent = try rooms.fixture.share(["send", "--text", "after a refresh", "--to", rooms.team])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(try Self.bodies(rooms) == ["after a refresh"])
        let refreshed = try #require(try storage.read(.child))
        #expect(refreshed.sessionID == device, "the same device, no new login")
        #expect(refreshed.accessToken.utf8String != "syt_not_a_token_the_server_knows")

        // Expired by its own clock: refreshed before it is used, on the same device.
        var expired = refreshed
        expired.accessExpiresAt = expired.obtainedAt
        try storage.write(expired, for: .child)
        let again = try rooms.fixture.share(["send", "--text", "after an expiry", "--to", rooms.team])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try Self.bodies(rooms) == ["after a refresh", "after an expiry"])
        let renewed = try #require(try storage.read(.child))
        #expect(renewed.sessionID == device)
        #expect(renewed.accessToken != refreshed.accessToken)
        #expect(renewed.accessExpiresAt > renewed.obtainedAt)
    }
}
