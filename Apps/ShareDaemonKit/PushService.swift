import ClientAssembly
import Foundation
import PushPreviewInterface
import ServerAPIInterface
import SessionsInterface
import ShareCore
import SharedStateInterface

/// The daemon's push service, the app side of the notifier (docs/protocol.md "Push"):
///
/// - writes `client.push.fetch_timeout` into the shared state when it is
///   missing, for the notifier (`share notify` has no configuration of its own);
/// - registers this device for push (registerPush, provider `test`, a
///   generated device token) when no registration is stored, and again when
///   the token changes (`SHAREKIT_PUSH_TOKEN`); the registration id and the
///   preview token go into the keychain only;
/// - runs each `push` event of the feed through the notifier and shows it;
/// - takes the notifier's display counters and reports them (submitClientMetrics).
///
/// Unregistering happens at `share logout`, which ends the session.
struct PushService: Sendable {
    /// Overrides the generated device token (a new value registers again).
    static let tokenVariable = "SHAREKIT_PUSH_TOKEN"
    /// The push service of the reference server's own path (`POST /push/test`).
    static let provider = "test"
    static let environmentName = "production"
    static let appID = "sharekit.daemon"
    static let platform = "linux"

    let daemon: Daemon

    private var registrations: any PushRegistrationStoring {
        daemon.assembly.pushRegistrations()
    }

    private var instance: String { ClientAssembly.pushInstance(ofOrigin: daemon.connection.origin) }

    private var registrar: any PushRegistering {
        daemon.connection.pushRegistrar()
    }

    /// The notifier over the daemon's DPoP client: it gets no session.
    private var notifier: any PushNotifying {
        daemon.connection.notifier()
    }

    /// The pause between passes that went through.
    static let interval: Duration = .seconds(60)
    /// The pauses after passes that failed (the server unreachable or
    /// refusing): jittered ceilings from one minute, doubling up to 15
    /// minutes, so a server that is down is not asked every minute by every
    /// daemon at once.
    static let retryBackoff = BackoffPolicy(base: .seconds(60), cap: .seconds(900))

    /// One pass: the fetch timeout, the registration, the counters.
    /// - Returns: false when registering or reporting failed (the loop backs off).
    @discardableResult
    func pass() async -> Bool {
        guard daemon.isLoggedIn else { return true }
        writeFetchTimeout()
        let registered = await ensureRegistration()
        let reported = await reportCounters()
        return registered && reported
    }

    /// The service's loop: a pass every minute while they go through, after
    /// ``retryBackoff`` delays while they fail (a push event reports at once).
    func loop() async {
        var failures = 0
        repeat {
            failures = await pass() ? 0 : failures + 1
            let pause = failures == 0 ? Self.interval : Self.retryBackoff.delay(afterAttempt: failures)
            try? await Task.sleep(for: pause)
        } while !Task.isCancelled
    }

    /// Renders one `push` event of the feed, shows it and reports the counters.
    /// - Parameter event: the event (its `payload` member).
    func handle(event: EventPage.Event) async {
        let receivedAt = ContinuousClock.now
        let log = daemon.log
        guard let payloadValue = event.payload else {
            log.warning("push", "a push event without a payload was ignored")
            return
        }
        let payload: PushPayload
        do {
            payload = try ClientAssembly.pushPayload(from: payloadValue)
        } catch {
            log.warning("push", "a push was ignored: \(error)")
            return
        }
        let shown = await notifier.render(payload, receivedAt: receivedAt)
        // Ids and the outcome only: the log never holds a name or a text.
        log.info(
            "push",
            "rendered notification \(shown.nid ?? "?") (\(shown.outcome.rawValue)"
                + (shown.failure.map { ": \($0)" } ?? "") + ")")
        do {
            try daemon.assembly.notificationPresenter().deliver(shown)
        } catch {
            log.warning("push", "cannot show the notification: \(error)")
        }
        _ = await reportCounters()
    }

    /// Writes the default `client.push.fetch_timeout` when the shared state has none.
    private func writeFetchTimeout() {
        let state = daemon.assembly.container.state
        _ = try? state.update(.pushFetchTimeout) { current in
            current ?? String(ClientAssembly.defaultPushFetchTimeout.components.seconds * 1000)
        }
    }

    /// Registers when nothing is stored for this server or the device token changed.
    /// - Returns: false when the registration could not be read or made.
    private func ensureRegistration() async -> Bool {
        let log = daemon.log
        let stored: PushRegistration?
        do {
            stored = try registrations.registration(instance: instance)
        } catch {
            log.error("push", "cannot read the push registration: \(error)")
            return false
        }
        let wanted =
            daemon.assembly.environment[Self.tokenVariable].flatMap { $0.isEmpty ? nil : $0 } ?? stored?.pushToken
            ?? "test-" + UUIDv7().description
        if let stored, stored.pushToken == wanted, stored.origin == daemon.connection.origin { return true }
        do {
            let registration = try await registrar.register(
                pushToken: wanted, provider: Self.provider, environment: Self.environmentName, appID: Self.appID)
            try registrations.store(registration, instance: instance)
            // The server takes over a known token only; a replaced one would stay registered.
            if let stored, stored.origin == daemon.connection.origin {
                try? await registrar.unregister(registrationID: stored.registrationID)
            }
            log.info(
                "push",
                stored == nil
                    ? "registered for push as \(registration.registrationID)"
                    : "registered again for a new push token as \(registration.registrationID)")
            return true
        } catch {
            log.warning("push", "cannot register for push now: \(error)")
            return false
        }
    }

    /// Takes the display counters and reports them; on failure they are added back for the next try.
    /// - Returns: false when the report failed; true when it went through or there was nothing to report.
    private func reportCounters() async -> Bool {
        let counters = daemon.assembly.displayCounters()
        guard let totals = try? counters.take(), !totals.isEmpty else { return true }
        do {
            try await registrar.submit(totals, platform: Self.platform, appVersion: ShareKitVersion.current)
            daemon.log.info(
                "push", "reported \(totals.displays) notification(s), \(totals.placeholders) placeholder(s)")
            return true
        } catch {
            counters.restore(totals)
            daemon.log.warning("push", "cannot report the notification counters now: \(error)")
            return false
        }
    }
}
