import Dispatch
import Foundation
import Glibc
import ShareKitAppSupport
import ShareKitClientAssembly
import ShareKitCore
import ShareKitDaemonControlInterface
import ShareKitInboxInterface
import ShareKitOutboxInterface
import ShareKitSecureFiles
import ShareKitSharedStateInterface
import Synchronization

/// Runs the daemon's services: once (`--once`) or as loops until SIGTERM
/// or SIGINT, each loop woken by its own signal (inotify, the control
/// socket, a timer).
struct DaemonRunner: Sendable {
    let daemon: Daemon
    let options: DaemonOptions
    /// Armed when the daemon starts to stop: `main` waits no longer.
    let stopDeadline: StopDeadline

    /// `--once`: one pass of every service (child session, instance values,
    /// takeover, the outbox drained as far as the server allows now), then
    /// the delivery notices it showed are waited for. SIGTERM or SIGINT
    /// cancels the pass and stops the notification programs.
    /// - Returns: 0, or 1 when a person must act (not logged in, a store that cannot be used).
    func runOnce() async -> ExitCode {
        SignalWaiter.install()
        let pass = Task { await onePass() }
        let daemon = daemon
        // Never awaited: without a signal it waits until the process exits.
        Task.detached {
            await SignalWaiter.waitForTermination()
            daemon.log.info("daemon", "stopping")
            pass.cancel()
        }
        let code = await pass.value
        if pass.isCancelled {
            await daemon.notificationWaits.stopAll()
        } else {
            await daemon.notificationWaits.waitForAll()
        }
        return code
    }

    /// The pass of ``runOnce()``.
    private func onePass() async -> ExitCode {
        let log = daemon.log
        guard daemon.isLoggedIn else {
            log.error("daemon", "not logged in: run `share login --server URL --user NAME`")
            return .failure
        }
        guard await daemon.keepChildSession() else { return .failure }
        await daemon.refreshParent()
        await daemon.updateInstanceValues()
        await PushService(daemon: daemon).pass()  // push registration and counters
        daemon.pruneUploadRecords()  // what a daemon killed after its last takeover left
        guard let takeover = daemon.takeover() else { return .failure }
        var told: Set<String> = []
        logUndoWindows(takeover, told: &told)
        if options.retryNow { daemon.retryNow() }
        guard let drain = await daemon.drain(lease: options.lease) else { return .failure }
        // The taken entries' folders are deleted in the background; finish before exiting.
        daemon.inbox.waitForRemovals()
        log.info(
            "daemon",
            "pass done: took over \(takeover.takenOver.count), sent \(drain.sent), retrying \(drain.retried), "
                + "failed \(drain.failed)")
        return .success
    }

    /// The foreground daemon: every service loop until SIGTERM/SIGINT.
    func runForever() async -> ExitCode {
        // Before the `ready` line: a SIGTERM sent as soon as it appears must stop the daemon.
        SignalWaiter.install()
        MemoryRelease.limitArenas()
        let log = daemon.log
        let control: any DaemonControlListening
        do {
            let limits = DaemonControlLimits(deadline: options.controlTimeout)
            control = try daemon.assembly.listenForDaemonControl(
                at: options.socketPath, limits: limits, handler: DaemonControlAnswers(daemon: daemon))
        } catch {
            log.error("daemon", "\(error)")
            return .failure
        }
        defer { control.close() }
        let watcher = InboxWatcher(directory: daemon.assembly.container.inboxPath) { [daemon] in
            daemon.takeoverWake.wake()
        }
        defer { watcher?.stop() }
        if watcher == nil { log.warning("takeover", "no inotify; the inbox is looked at every \(options.interval)") }
        log.info(
            "daemon",
            "started (pid \(getpid())), server \(daemon.connection.origin), control socket \(options.socketPath)")
        if options.retryNow { daemon.retryNow() }
        daemon.pruneUploadRecords()  // what a daemon killed after its last takeover left
        adoptLegacyCursor()
        await establishFeedPosition()
        // The line tests and scripts wait for (stdout, unbuffered).
        FileDescriptorSink.standardOutput.write("share-daemon: ready\n")

        let main = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await sessionLoop() }
                group.addTask { await takeoverLoop() }
                group.addTask { await drainLoop() }
                group.addTask { await eventLoop() }
                group.addTask { await PushService(daemon: daemon).loop() }  // push registration and counters
            }
        }
        await SignalWaiter.waitForTermination()
        log.info("daemon", "stopping")
        // Should a service hang, `main` ends the process at the deadline
        // (every store is safe against that, as against a kill).
        stopDeadline.arm(after: Self.stopDeadline) {
            log.error("daemon", "did not stop within \(Self.stopDeadline); exiting")
        }
        main.cancel()
        // The notification programs go at once, beside the services' end:
        // each gets SIGTERM, then SIGKILL, and is reaped.
        async let notifications: Void = daemon.notificationWaits.stopAll()
        await main.value
        await notifications
        daemon.inbox.waitForRemovals()
        log.info("daemon", "stopped")
        return .success
    }

    /// The longest a stop may take. Every service ends promptly when
    /// cancelled (a request in flight is cancelled, a notification program
    /// is killed after a second); should one still hang, `main` ends the
    /// process anyway (``ProgramRun``): every store is safe against a kill at any point
    /// (docs/adr/0006-write-ahead-inbox-and-outbox.md).
    static let stopDeadline: Duration = .seconds(10)

    private func sessionLoop() async {
        var lastInstance: ContinuousClock.Instant?
        var generation = daemon.accounts.generation
        repeat {
            // `share login`, `share logout` and `share accounts use` wake this loop.
            daemon.followAccount()
            if daemon.accounts.generation != generation {
                generation = daemon.accounts.generation
                lastInstance = nil  // another server: its limits now
            }
            if daemon.isLoggedIn {
                await daemon.keepChildSession()
                await daemon.refreshParent()
                if lastInstance.map({ ContinuousClock.now - $0 > .seconds(600) }) ?? true {
                    await daemon.updateInstanceValues()
                    lastInstance = .now
                }
            } else {
                daemon.status.withLock { $0.childSession = "not logged in" }
            }
        } while await daemon.sessionWake.wait(timeout: .seconds(60))
    }

    private func takeoverLoop() async {
        var told: Set<String> = []
        var timeout = options.interval
        repeat {
            timeout = options.interval
            if let report = daemon.takeover() {
                logUndoWindows(report, told: &told)
                // A share interrupted with Ctrl-C is taken over as soon as its undo window ends.
                if let end = report.nextWindowEnd {
                    timeout = min(timeout, .milliseconds(max(0, end - UnixClock.system.milliseconds()) + 1))
                }
            }
        } while await daemon.takeoverWake.wait(timeout: timeout)
    }

    /// Logs each share whose undo window holds it in the share inbox (once
    /// per share and daemon run), and each `not_before` not honoured.
    /// - Parameter told: the shares already logged as waiting.
    private func logUndoWindows(_ report: TakeoverReport, told: inout Set<String>) {
        for waiting in report.waiting where told.insert(waiting.id).inserted {
            let until = RFC3339.string(unixMilliseconds: waiting.until)
            daemon.log.info(
                "takeover",
                "\(waiting.id) waits for its undo window until \(until) (interrupted with Ctrl-C; "
                    + "share inbox drop takes it back until then)")
        }
        for id in report.windowsNotHonoured {
            daemon.log.warning(
                "takeover",
                "\(id): its not_before is more than \(InboxManifest.maximumUndoWindowSeconds) s ahead, "
                    + "longer than any undo window; not honoured, taken over now")
        }
        told.formIntersection(report.waiting.map(\.id))
    }

    private func drainLoop() async {
        repeat {
            var timeout = options.interval
            daemon.followAccount()
            // A share for another account's server is sent with that account's session.
            if daemon.isLoggedIn || daemon.accounts.anyAccountHasSession,
                let report = await daemon.drain(lease: options.lease)
            {
                if let next = report.nextDueAt {
                    timeout = min(timeout, .milliseconds(max(0, next - UnixClock.system.milliseconds())))
                }
                daemon.log.debug(
                    "outbox", "pass done: sent \(report.sent), retrying \(report.retried), failed \(report.failed)")
                if report.sent + report.retried + report.failed > 0 { MemoryRelease.returnFreedMemory() }
            }
            if Task.isCancelled { return }
            guard await daemon.drainWake.wait(timeout: timeout) else { return }
        } while true
    }

    private func eventLoop() async {
        var generation = daemon.accounts.generation
        var path = cursorPath
        var cursor: String? = try? String(contentsOfFile: path, encoding: .utf8)
        var failures = 0
        while !Task.isCancelled {
            daemon.followAccount()
            if daemon.accounts.generation != generation {
                // Another account: its own feed, from its own position.
                generation = daemon.accounts.generation
                path = cursorPath
                cursor = try? String(contentsOfFile: path, encoding: .utf8)
                failures = 0
            }
            guard daemon.isLoggedIn, daemon.hasShareKitServices else {
                guard await daemon.sessionWake.wait(timeout: .seconds(30)) else { return }
                continue
            }
            do {
                let daemon = daemon
                let after = cursor
                let next = try await daemon.accounts.trackPoll { try await daemon.pollEvents(after: after, wait: 20) }
                daemon.reached()
                if let next, next != cursor {
                    cursor = next
                    writeCursor(next, to: path)
                }
                failures = 0
            } catch {
                if Task.isCancelled { return }
                // A poll cut short by a switch of the account is no failure of the server.
                if daemon.accounts.generation != generation { continue }
                failures += 1
                let delay = Self.eventFeedBackoff.delay(afterAttempt: failures)
                daemon.log.warning("events", "event feed: \(error); again in \(delay)")
                try? await Task.sleep(for: delay)
            }
        }
    }

    /// Where the feed's position of the account served is kept: one file
    /// per account (`events-<digest>.cursor`), since each server's feed has
    /// its own positions.
    private var cursorPath: String {
        let scope = daemon.accounts.scope(for: daemon.connection.origin)
        return daemon.stateDirectory + "/events-\(scope.digest).cursor"
    }

    /// The position an earlier version kept in `events.cursor`, of the one
    /// server it served: the account the daemon starts with, unless that
    /// account has a position of its own already.
    private func adoptLegacyCursor() {
        let legacy = daemon.stateDirectory + "/events.cursor"
        guard FileManager.default.fileExists(atPath: legacy) else { return }
        if FileManager.default.fileExists(atPath: cursorPath) || rename(legacy, cursorPath) != 0 {
            unlink(legacy)
        }
    }

    /// Keeps the feed's position for the next start: replaced atomically,
    /// 0600 whatever the umask (Foundation's writes would make it 0666 less
    /// the umask). Best effort: without it the next start takes the feed's
    /// current position again.
    private func writeCursor(_ cursor: String, to path: String? = nil) {
        try? DurableFile.replace(path ?? cursorPath, with: Array(cursor.utf8))
    }

    /// The event feed without a cursor starts at the moment of the first
    /// poll: an event between the daemon's start and that poll (a revoked
    /// write permission, say) would be missed. So before the daemon says it
    /// is ready, a first start takes the feed's current position (a poll that
    /// does not wait), at most a few seconds, so an unreachable server does
    /// not hold the daemon back (the event loop then starts from its first poll).
    private func establishFeedPosition() async {
        guard daemon.isLoggedIn, daemon.hasShareKitServices, !FileManager.default.fileExists(atPath: cursorPath)
        else { return }
        let daemon = daemon
        let probe = Task { try? await daemon.pollEvents(after: nil, wait: 0) }
        let timer = Task {
            try? await Task.sleep(for: .seconds(3))
            probe.cancel()
        }
        defer { timer.cancel() }
        if let position = await probe.value {
            daemon.reached()
            writeCursor(position)
        }
    }

    /// The event feed's retries after failed polls: ceilings 2 s, 4 s, …
    /// up to 256 s as before, now jittered so that daemons cut off together
    /// do not all poll again in the same second.
    static let eventFeedBackoff = BackoffPolicy(base: .seconds(2), cap: .seconds(256))
}

/// The daemon's command-line options.
struct DaemonOptions: Sendable {
    var once: Bool
    var verbose: Bool
    /// `--retry-now`: every waiting send due at start.
    var retryNow: Bool = false
    var interval: Duration
    var lease: Duration
    var socketPath: String
    /// `--max-notifications`: the most notification programs alive at once.
    var maxNotifications: Int = NotificationWaits.defaultLimit
    /// `--control-timeout`: a control socket connection's deadline.
    var controlTimeout: Duration = .seconds(2)
}
