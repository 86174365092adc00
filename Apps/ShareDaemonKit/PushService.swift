import Foundation
import ShareKitClientAssembly
import ShareKitCore
import ShareKitPushPreviewInterface
import ShareKitServerAPIInterface
import ShareKitSessionsInterface
import ShareKitSharedStateInterface

/// The daemon's push service, the app side of the notifier (docs/protocol.md "Push"):
///
/// - writes `client.push.fetch_timeout` into the shared state when it is
///   missing, for the notifier (`share notify` has no configuration of its own);
/// - registers this device for push (registerPush, provider `test`, a
///   generated device token) when no registration is stored, and again when
///   the token changes (`SHAREKIT_PUSH_TOKEN`); the registration id and the
///   preview token go into the keychain only;
/// - keeps the registration alive: the server ends a registration with the
///   session it was made with, and refuses its preview token then (`401`).
///   So a registration made with another session than the current parent
///   (revoked, logged out, a new `share login`), one whose preview token the
///   notifier saw refused (`counters.push.preview_refused`), and one whose
///   session a `session.revoked` event names is deleted and made again;
/// - runs each `push` event of the feed through the notifier and shows it;
///   a click on the notification opens the message's web link;
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

    private var instance: String { PushRegistration.instance(ofOrigin: daemon.connection.origin) }

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
        guard daemon.isLoggedIn, daemon.hasShareKitServices else { return true }
        writeFetchTimeout()
        let registered = await ensureRegistration()
        let reported = await reportCounters()
        return registered && reported
    }

    /// The service's loop: a pass every minute while they go through, after
    /// ``retryBackoff`` delays while they fail; a wake-up (a login, a
    /// revoked session, a refused preview token) makes a pass at once.
    func loop() async {
        var failures = 0
        repeat {
            failures = await pass() ? 0 : failures + 1
        } while await daemon.pushWake.wait(
            timeout: failures == 0 ? Self.interval : Self.retryBackoff.delay(afterAttempt: failures))
    }

    /// Renders one `push` event of the feed, shows it and reports the counters.
    /// - Parameter event: the event (its `payload` member).
    func handle(event: EventPage.Event) async {
        let receivedAt = ContinuousClock.now
        let log = daemon.log
        guard daemon.notificationsEnabled else {
            log.debug("push", "a push was not shown: notifications are off (--no-notifications)")
            return
        }
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
        // The notifier counted the refusal; the pass registers again now, so
        // the next push can be shown in full.
        if shown.failure == .status(401) { daemon.pushWake.wake() }
        await show(shown)
        _ = await reportCounters()
    }

    /// How long a push waits for the id of the notification before it: the
    /// notification server answers within milliseconds; one that does not
    /// must not hold up the event feed.
    static let idWait: Duration = .seconds(2)

    /// Shows a notification without holding up the event feed: a
    /// notification with a link waits for its click (or its closing) in
    /// the daemon's notification waits, and a click opens the link.
    ///
    /// A notification of a thread that has one on the desktop takes its
    /// place (its id, the freedesktop `replaces_id`), so a thread is one
    /// notification however many messages came. This returns once the
    /// notification server has given the id (at most ``idWait``), so the
    /// next push of the feed, often of the same thread, finds it.
    private func show(_ shown: RenderedNotification) async {
        let presenter = daemon.assembly.notificationPresenter()
        let log = daemon.log
        let nid = shown.nid ?? "?"
        let ids = daemon.threadNotifications
        let thread = shown.threadID
        let (known, signal) = AsyncStream<Void>.makeStream()
        daemon.notificationWaits.start(nid, group: thread) {
            defer { signal.finish() }
            do {
                let answer = try await presenter.present(
                    shown, replacing: thread.flatMap { ids.id(of: $0) },
                    shownAs: { id in
                        if let thread { ids.set(id, for: thread) }
                        signal.finish()
                    })
                switch answer {
                case .shown: log.debug("push", "notification \(nid) shown")
                case .closed: log.debug("push", "notification \(nid) closed without a click")
                case .opened: log.info("push", "notification \(nid) was clicked: opened the message's web link")
                }
            } catch {
                log.warning("push", "notification \(nid): \(error)")
            }
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for await _ in known {} }
            group.addTask { try? await Task.sleep(for: Self.idWait) }
            await group.next()
            group.cancelAll()
        }
    }

    /// A `session.revoked` event: the server has disabled the registrations
    /// of that session, so a stored registration made with it is deleted
    /// (the notifier stops offering its dead preview token) and the next
    /// pass, at once, registers again when there is a usable session.
    /// - Parameter sessionID: the revoked session.
    func sessionRevoked(_ sessionID: String) {
        guard let stored = (try? registrations.registration(instance: instance)) ?? nil,
            stored.sessionID == sessionID
        else { return }
        do {
            try registrations.delete(instance: instance)
            daemon.log.info(
                "push", "the session of push registration \(stored.registrationID) was revoked: registering again")
        } catch {
            daemon.log.error("push", "cannot delete the push registration: \(error)")
        }
        daemon.pushWake.wake()
    }

    /// Writes the default `client.push.fetch_timeout` when the shared state has none.
    private func writeFetchTimeout() {
        let state = daemon.assembly.container.state
        _ = try? state.update(.pushFetchTimeout) { current in
            current ?? String(PushRegistration.defaultFetchTimeout.components.seconds * 1000)
        }
    }

    /// Why a stored registration is made again.
    private enum Renewal {
        /// Another server's origin or another device token.
        case newToken
        /// The server refused its preview token: it is gone there.
        case refused
        /// It was made with another session than the current parent, or with one not recorded.
        case otherSession

        /// Whether the server said the stored registration no longer works,
        /// so it goes before the new one is made: should registering fail,
        /// the next pass registers again (nothing stored), and the notifier
        /// does not ask with a token the server refuses. A registration of
        /// another session is replaced only once a new one is there: it may
        /// still work (its session not ended, or made with the new session
        /// in a race with a login).
        var isDead: Bool { self == .refused }

        func line(_ id: String) -> String {
            switch self {
            case .newToken: return "registered again for a new push token as \(id)"
            case .refused: return "registered again as \(id): the server refused the previous preview token"
            case .otherSession:
                return "registered again as \(id): the previous registration was made with another session"
            }
        }
    }

    /// Registers when nothing is stored for this server, the device token
    /// changed, the server refused the stored registration's preview token,
    /// or the registration was made with another session than the current parent.
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
        let refused = takePreviewRefusals()
        let session = ((try? daemon.connection.storage.read(.parent)) ?? nil)?.sessionID
        var renewal: Renewal?
        if let current = stored {
            if current.pushToken != wanted || current.origin != daemon.connection.origin {
                renewal = .newToken
            } else if refused {
                renewal = .refused
            } else if current.sessionID == nil || current.sessionID != session {
                renewal = .otherSession
            } else {
                return true
            }
        }
        if let current = stored, renewal?.isDead == true {
            do {
                try registrations.delete(instance: instance)
            } catch {
                log.error("push", "cannot delete the push registration: \(error)")
                return false
            }
            log.debug("push", "deleted push registration \(current.registrationID), which the server no longer takes")
        }
        do {
            let registration = try await registrar.register(
                pushToken: wanted, provider: Self.provider, environment: Self.environmentName, appID: Self.appID)
            try registrations.store(registration, instance: instance)
            // The server takes over a known token only; a replaced one would
            // stay registered. One that is dead there is removed as well (its row).
            if let current = stored, current.origin == daemon.connection.origin {
                try? await registrar.unregister(registrationID: current.registrationID)
            }
            log.info(
                "push",
                renewal.map { $0.line(registration.registrationID) }
                    ?? "registered for push as \(registration.registrationID)")
            return true
        } catch {
            log.warning("push", "cannot register for push now: \(error)")
            return false
        }
    }

    /// Takes (reads and resets) the notifier's count of refused preview tokens.
    /// - Returns: whether the server refused the preview token since the last take.
    private func takePreviewRefusals() -> Bool {
        var count: Int64 = 0
        _ = try? daemon.assembly.container.state.update(.previewRefusedCount) { current in
            count = current.flatMap { Int64($0) } ?? 0
            return nil
        }
        return count > 0
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
