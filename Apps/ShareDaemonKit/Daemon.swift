import AppSupport
import ClientAssembly
import DaemonControlInterface
import DeliveryInterface
import Foundation
import HTTPInterface
import MessagesInterface
import OutboxInterface
import PushPreviewInterface
import ServerAPIInterface
import SessionsInterface
import ShareCore
import ShareInboxInterface
import SharedStateInterface
import Synchronization
import TargetStoreInterface
import WireContract

/// What the daemon knows about itself, for `share status` (through the
/// control socket) and for the log.
struct DaemonStatus: Sendable {
    var childSession = "unknown"
    var lastTakeoverAt: Date?
    var lastDrainAt: Date?
    var lastError: String?
    /// When the served server last answered (reset when the account changes).
    var lastReachedAt: Date?
    var takenOver = 0
    var quarantined: [String] = []
}

/// The share-daemon's services around the current account (which it
/// follows: ``AccountFollower``): each has one pass function;
/// ``DaemonRunner`` runs the passes in loops (or once, for `--once`).
///
/// - child session keeper: a child session in the shared keychain group
///   whenever none is usable (createExtensionSession, `share_ext`); it never
///   refreshes the child family (that is the CLI's).
/// - parent refresh: its own family only.
/// - instance values: limits and config values into the shared state.
/// - inbox takeover: every unlocked inbox entry into the outbox, once.
/// - outbox: sends through the same delivery engine as the CLI, exactly once.
/// - recent targets: after each send; `access.changed` removes targets.
final class Daemon: Sendable {
    let assembly: ClientAssembly
    /// The account served and the connections per server.
    let accounts: AccountFollower
    let inbox: any ShareInboxStoring
    let outbox: any OutboxQueueing
    let log: DaemonLog
    let stateDirectory: String
    let takeoverWake = WakeSignal()
    let drainWake = WakeSignal()
    let sessionWake = WakeSignal()
    /// Wakes the push service: a login, a revoked session, a refused preview token.
    let pushWake = WakeSignal()
    /// The notifications shown (pushes, delivery notices), their programs counted and bounded.
    let notificationWaits: NotificationWaits
    /// Whether pushes are shown (`--no-notifications` turns them off).
    let notificationsEnabled: Bool
    /// Per push thread (`aps.thread-id`), the id the notification server
    /// gave its notification: the next push of the thread replaces it.
    let threadNotifications = ThreadNotificationIDs()
    let status = Mutex(DaemonStatus())

    /// - Throws: when the outbox database or the inbox cannot be opened (a
    ///   person must look: exit 1).
    /// - Parameters:
    ///   - maxNotifications: the most notification programs alive at once.
    ///   - notifications: whether pushes are shown.
    init(
        assembly: ClientAssembly, account: SignedInAccount, stateDirectory: String, log: DaemonLog,
        maxNotifications: Int = NotificationWaits.defaultLimit, notifications: Bool = true
    ) throws {
        self.assembly = assembly
        self.log = log
        notificationsEnabled = notifications
        notificationWaits = NotificationWaits(limit: maxNotifications, log: log)
        self.stateDirectory = stateDirectory
        accounts = try AccountFollower(assembly: assembly, account: account)
        inbox = assembly.shareInbox()
        // The app's own storage, private like the keychain's files.
        outbox = try assembly.outbox(stateDirectory: stateDirectory)
    }

    /// The connection of the account served.
    var connection: ServerConnection { accounts.connection }

    /// The recent targets of the account served.
    var recents: any RecentTargetsStoring { assembly.recentTargets(of: accounts.account(at: connection.origin)) }

    /// The resumable upload records of the CLI and the daemon (shared container).
    var uploadRecordsDirectory: String { assembly.container.rootPath + "/uploads" }

    /// Whether the account served is on a ShareKit server: only one has the
    /// event feed and push registration (a Matrix homeserver pushes through
    /// its own gateways; the daemon then runs the sessions and the outbox).
    var hasShareKitServices: Bool { connection.kind == .sharekit }

    /// Whether an account is served and its parent session is stored.
    var isLoggedIn: Bool {
        accounts.account != nil && ((try? connection.storage.read(.parent)) ?? nil) != nil
    }

    // MARK: - Sessions

    /// Makes sure the CLI has a child session. Returns false when there is
    /// no parent session to make one with (logged out, revoked).
    @discardableResult
    func keepChildSession() async -> Bool {
        do {
            let connection = self.connection
            let child = try await connection.issuer.ensureChildSession(parent: connection.provider(.parent))
            let changed = status.withLock { state -> Bool in
                defer { state.childSession = "ok" }
                return state.childSession != "ok"
            }
            if changed { log.info("session", "child session \(child.sessionID) ready for share") }
            return true
        } catch {
            status.withLock { $0.childSession = "missing: \(error)" }
            switch error {
            case .unavailable:
                log.error("session", "no usable session (\(error)); run `share login`")
                return false
            default:
                log.warning("session", "cannot make a child session now: \(error)")
                return true
            }
        }
    }

    /// Keeps the parent family fresh (the provider refreshes when it is due).
    func refreshParent() async {
        do {
            _ = try await connection.provider(.parent).currentAccessToken()
        } catch {
            log.warning("session", "parent session: \(error)")
        }
    }

    // MARK: - Instance values

    /// Writes the server's limits and settings into the shared state for the CLI and the notifier.
    func updateInstanceValues() async {
        guard let account = accounts.account else { return }
        let connection = self.connection
        do {
            let limits = try await connection.messages(.parent).instanceLimits()
            reached()
            try assembly.container.state.storeInstanceLimits(limits, of: account.scope)
            log.debug(
                "instance",
                "limits: \(limits.fileMaxUploadBytes) bytes, \(limits.messageMaxAttachments) attachments")
        } catch let error as APIError {
            // What the failure means for a share, as the log said before limits were a share's business.
            log.warning(
                "instance", "cannot read the server's limits now: \(ClientAssembly.shareText(of: error).english)")
        } catch {
            log.warning("instance", "cannot read the server's limits now: \(error)")
        }
        let request = APIRequest(.getSettings)
        if let settings = try? await connection.api(.parent).send(request, decoding: SettingsAnswer.self).value,
            let mode = PreviewMode(rawValue: settings.notify.previewMode)
        {
            do {
                try assembly.container.state.set(mode.rawValue, for: .previewMode)
                log.info("settings", "notify.preview_mode \(mode.rawValue) written for the notifier")
            } catch {
                log.warning("settings", "cannot write notify.preview_mode: \(error)")
            }
        }
    }

    // MARK: - Takeover and outbox

    /// One takeover pass; wakes the drainer when something new arrived.
    func takeover() -> TakeoverReport? {
        do {
            let report = try assembly.inboxTakeover(inbox: inbox, outbox: outbox).run()
            status.withLock {
                $0.lastTakeoverAt = Date()
                $0.takenOver += report.takenOver.count
                $0.quarantined = report.quarantined.map { "\($0.id): \($0.reason)" }
            }
            if !report.takenOver.isEmpty {
                log.info(
                    "takeover", "took over \(report.takenOver.count) entr\(report.takenOver.count == 1 ? "y" : "ies")")
                // One line per share, so the log told by one id is the share's whole story.
                for id in report.takenOver { log.info("takeover", Self.takenOverLine(id, outbox: outbox)) }
                pruneUploadRecords()
                drainWake.wake()
            }
            if !report.alreadyInOutbox.isEmpty {
                log.info("takeover", "removed \(report.alreadyInOutbox.count) entries the outbox already held")
                for id in report.alreadyInOutbox {
                    log.info("takeover", "\(id) was in the outbox already; its share inbox entry was removed")
                }
            }
            for entry in report.quarantined { log.warning("takeover", "quarantined \(entry.id): \(entry.reason)") }
            for failure in report.failed {
                log.warning("takeover", "entry \(failure.id) left for later: \(failure.reason)")
            }
            return report
        } catch {
            log.error("takeover", "\(error)")
            status.withLock { $0.lastError = "\(error)" }
            return nil
        }
    }

    /// Removes the resumable upload records whose file is gone. A share the
    /// CLI began to upload keeps a record naming its inbox path, which a
    /// takeover moves away: nobody can resume it, and its unfinished upload
    /// expires on the server. Runs after every takeover that took something,
    /// and once when the daemon starts, because a daemon killed between a
    /// takeover and this cleanup leaves the records for the next one.
    func pruneUploadRecords() {
        do {
            let pruned = try assembly.pruneUploadRecordsOfMissingFiles(in: uploadRecordsDirectory)
            if pruned > 0 { log.debug("takeover", "removed \(pruned) upload records of moved files") }
        } catch {
            log.warning("takeover", "cannot remove the upload records of moved files: \(error)")
        }
    }

    /// Makes every waiting send of the outbox due now (`--retry-now`, the
    /// control socket's `retry`): the person knows the server is back and
    /// should not wait for a backoff of up to five minutes.
    func retryNow() {
        do {
            let count = try outbox.makeAllDue(now: UnixClock.system.milliseconds())
            log.info("outbox", "retry now: \(count) waiting send(s) due at once")
        } catch {
            log.error("outbox", "cannot make the waiting sends due: \(error)")
        }
    }

    /// One drain pass of the outbox; the parent session sends.
    func drain(lease: Duration) async -> DrainReport? {
        let accounts = self.accounts
        let assembly = self.assembly
        let state = assembly.container.state
        let log = self.log
        let uploads = uploadRecordsDirectory
        let outbox = self.outbox
        let presenter =
            Self.notificationServiceIsThere(assembly.environment) ? assembly.notificationPresenter() : nil
        let waits = notificationWaits
        let drainer = assembly.outboxDrainer(
            outbox: outbox,
            makeSender: { origin in
                // A share goes to the server it was made for, with the session stored there.
                guard let connection = accounts.sendingConnection(for: origin) else {
                    // No session there (logged out): the item waits rather than being lost,
                    // until the person logs in there again.
                    return .signedOut("not logged in at \(origin)")
                }
                let limits =
                    state.instanceLimits(of: accounts.scope(for: origin))?.messageLimits
                    ?? MessageLimits(messageMaxAttachments: Int.max, fileMaxUploadBytes: Int64.max)
                return connection.sender(.parent, limits: limits, recordsDirectory: uploads)
            },
            lease: lease,
            sentCallback: { item, _ in
                _ = try? assembly.recentTargets(of: accounts.account(at: item.serverOrigin)).record(item.target)
            },
            observer: { event in
                switch event {
                case .delivered(let id, .sent(let message)):
                    log.info(
                        "outbox",
                        "sent \(id) as message \(message.messageID)\(message.replayed ? " (replay of an earlier delivery)" : "")"
                    )
                    let target = ((try? outbox.item(id)) ?? nil)?.target.displayPath ?? "its target"
                    Self.tell(
                        presenter, waits: waits, log: log, id: id,
                        text: DaemonText.table.text(.notifySent, ["target": target], in: .process), failed: false)
                case .delivered(let id, .kept(let reason, _, let next)):
                    let wait = max(0, (next ?? 0) - UnixClock.system.milliseconds()) / 1000
                    log.warning("outbox", "\(id) not sent yet (\(reason.logDescription)); next attempt in \(wait) s")
                case .delivered(let id, .refused(let refusal)):
                    log.error("outbox", "\(id) refused (\(refusal.code)): \(refusal.message)")
                    Self.tell(
                        presenter, waits: waits, log: log, id: id, text: DaemonText.refused(refusal.message),
                        failed: true)
                case .delivered(_, .cancelled):
                    // The pass stopped: the item is due again at once, nothing to tell.
                    break
                case .claimed(let id, let attempt):
                    log.info("outbox", Self.sendingLine(id, attempt: attempt, outbox: outbox))
                case .uploaded(let id, let index, let uploadID):
                    log.info("outbox", "\(id) attachment \(index + 1) uploaded as \(uploadID)")
                }
            })
        do {
            // A record an older version stored with a number out of its
            // range is refused with its reason, never sent or trapped on.
            for (id, reason) in try outbox.refuseInvalidRecords(now: UnixClock.system.milliseconds()) {
                log.error("outbox", "\(id) refused (\(OutboxItem.invalidRecordCode)): \(reason)")
            }
            let report = try await drainer.drainOnce()
            status.withLock { $0.lastDrainAt = Date() }
            return report
        } catch {
            log.error("outbox", "\(error)")
            status.withLock { $0.lastError = "\(error)" }
            return nil
        }
    }

    /// The takeover's line for one share: where it came from and what the
    /// CLI's attempts left (ids, counts, times and reasons; never its text).
    static func takenOverLine(_ id: String, outbox: any OutboxQueueing) -> String {
        guard let key = try? UUIDv7(string: id), let item = (try? outbox.item(key)) ?? nil else {
            return "\(id) taken over from the share inbox"
        }
        let written = RFC3339.string(Date(timeIntervalSince1970: Double(item.createdAt) / 1000))
        var line =
            "\(id) taken over from the share inbox (written \(written) for \(item.target.kind.rawValue):"
            + "\(item.target.id), \(item.attachments.count) attachment(s); "
            + (item.attempts == 0 ? "not tried by share send" : "share send tried \(item.attempts) time(s)")
        if let last = item.lastError { line += ", last: \(last)" }
        return line + ")"
    }

    /// The drainer's line when it takes a share up: the attempt and what it will upload.
    static func sendingLine(_ id: UUIDv7, attempt: Int, outbox: any OutboxQueueing) -> String {
        let item = (try? outbox.item(id)) ?? nil
        let uploads = item?.attachments.filter { $0.completedUploadID == nil }.count ?? 0
        let what = uploads > 0 ? "uploading \(uploads) attachment(s), then the message" : "creating the message"
        return "\(id) sending, attempt \(attempt): \(what)"
    }

    /// Tells the person that a share they queued was delivered or refused:
    /// a desktop notification when a notification service is there (the
    /// program of `SHAREKIT_NOTIFY_COMMAND`, else `notify-send`); without one
    /// the log line and `share status` say it.
    ///
    /// The notice is shown beside the drain, among the daemon's counted
    /// notification programs: a notification program that hangs holds
    /// neither the outbox nor the daemon's stop.
    static func tell(
        _ presenter: (any NotificationPresenting)?, waits: NotificationWaits, log: DaemonLog, id: UUIDv7,
        text: String, failed: Bool
    ) {
        guard let presenter else { return }
        let shown = RenderedNotification(
            title: DaemonText.table.text(failed ? .notifyRefusedTitle : .notifySentTitle, in: .process), body: text,
            threadID: nil, badge: nil,
            sound: "default", kind: failed ? "share.refused" : "share.sent", nid: id.description, outcome: .unchanged)
        waits.start(id.description) {
            do {
                _ = try await presenter.present(shown)
            } catch {
                log.debug("outbox", "no desktop notification for \(id): \(error)")
            }
        }
    }

    /// Whether a notification service is there: the program the person
    /// named in `SHAREKIT_NOTIFY_COMMAND`, or `notify-send` on `PATH` with a
    /// session bus to reach the desktop's notification daemon.
    static func notificationServiceIsThere(_ environment: [String: String]) -> Bool {
        func runnable(_ name: String) -> Bool {
            if name.contains("/") { return access(name, X_OK) == 0 }
            let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
            return path.split(separator: ":").contains { access("\($0)/\(name)", X_OK) == 0 }
        }
        if let command = environment["SHAREKIT_NOTIFY_COMMAND"], !command.isEmpty { return runnable(command) }
        return environment["DBUS_SESSION_BUS_ADDRESS"]?.isEmpty == false && runnable("notify-send")
    }

    // MARK: - Events

    /// One long poll of the event feed; returns the next cursor.
    /// `access.changed` removes the named targets from the recent targets;
    /// `settings.changed` reloads the settings; `session.revoked` of the
    /// child makes a new child at once.
    func pollEvents(after cursor: String?, wait: Int) async throws -> String? {
        let connection = self.connection
        var timeouts = connection.requestTimeouts
        timeouts.lowSpeedTime = .seconds(Int64(wait) + 30)
        let page = try await connection.api(.parent).send(
            EventPage.request(after: cursor, wait: wait), decoding: EventPage.self,
            options: APICallOptions(timeouts: timeouts)
        ).value
        for event in page.events {
            switch event.type {
            case "access.changed":
                let ids = Set(event.targetIDs ?? [])
                if !ids.isEmpty, let left = try? recents.remove(ids: ids) {
                    log.info(
                        "targets",
                        "access changed: removed \(ids.sorted().joined(separator: ", ")) (\(left.targets.count) recent targets left)"
                    )
                }
            case "settings.changed":
                await updateInstanceValues()
            case "session.revoked":
                if let session = event.sessionID { PushService(daemon: self).sessionRevoked(session) }
                sessionWake.wake()
            case "push":
                // The notifier renders and shows it (PushService.swift); a
                // stopping daemon renders no more of a page of pushes.
                if Task.isCancelled { continue }
                await PushService(daemon: self).handle(event: event)
            default:
                break
            }
        }
        return page.cursor
    }

    // MARK: - Status

    /// The answer to the control socket's `status`, which `share status` shows (never a token).
    func statusAnswer() -> DaemonStatusReport {
        let state = status.withLock { $0 }
        let counts = try? outbox.counts()
        let failed = try? outbox.list(states: [.failed])
        let served = accounts.account
        return DaemonStatusReport(
            pid: Int(getpid()), server: served?.origin, user: served?.username,
            lastReachedAt: state.lastReachedAt.map { RFC3339.string($0) }, childSession: state.childSession,
            loggedIn: isLoggedIn,
            takenOver: state.takenOver, quarantined: state.quarantined,
            lastTakeoverAt: state.lastTakeoverAt.map { RFC3339.string($0) },
            lastPassAt: state.lastDrainAt.map { RFC3339.string($0) },
            lastError: state.lastError,
            outbox: counts.map {
                DaemonStatusReport.OutboxCounts(
                    pending: $0.pending, sending: $0.sending, sent: $0.sent, failed: $0.failed)
            },
            failed: failed?.map {
                DaemonStatusReport.FailedShare(
                    clientMsgID: $0.clientMsgID.description, target: $0.target.displayPath,
                    reason: $0.lastError ?? $0.failureCode ?? "refused")
            })
    }
}
