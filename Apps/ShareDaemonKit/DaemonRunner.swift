import AppSupport
import ClientAssembly
import Dispatch
import Foundation
import Glibc
import OutboxInterface
import SecureFiles
import ShareCore
import ShareInboxInterface
import SharedStateInterface
import Synchronization

/// Runs the daemon's services: once (`--once`) or as loops until SIGTERM
/// or SIGINT, each loop woken by its own signal (inotify, the control
/// socket, a timer).
struct DaemonRunner: Sendable {
    let daemon: Daemon
    let options: DaemonOptions

    /// `--once`: one pass of every service (child session, instance values,
    /// takeover, the outbox drained as far as the server allows now).
    /// - Returns: 0, or 1 when a person must act (not logged in, a store that cannot be used).
    func runOnce() async -> ExitCode {
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
        let control: ControlSocket
        do {
            control = try ControlSocket(path: options.socketPath) { [daemon] request in
                switch request {
                case .wake:
                    daemon.takeoverWake.wake()
                    daemon.sessionWake.wake()
                    // `share login` wakes the daemon: a new session needs a new push registration.
                    daemon.pushWake.wake()
                    return .acknowledged
                case .retry:
                    daemon.retryNow()
                    daemon.drainWake.wake()
                    return .acknowledged
                case .status:
                    return .status(daemon.statusAnswer())
                }
            }
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
        main.cancel()
        await main.value
        await daemon.notificationWaits.stopAll()
        daemon.inbox.waitForRemovals()
        log.info("daemon", "stopped")
        return .success
    }

    private func sessionLoop() async {
        var lastInstance: ContinuousClock.Instant?
        repeat {
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
            if daemon.isLoggedIn, let report = await daemon.drain(lease: options.lease) {
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
        var cursor: String? = try? String(contentsOfFile: cursorPath, encoding: .utf8)
        var failures = 0
        while !Task.isCancelled {
            guard daemon.isLoggedIn else {
                guard await daemon.sessionWake.wait(timeout: .seconds(30)) else { return }
                continue
            }
            do {
                let next = try await daemon.pollEvents(after: cursor, wait: 20)
                if let next, next != cursor {
                    cursor = next
                    writeCursor(next)
                }
                failures = 0
            } catch {
                if Task.isCancelled { return }
                failures += 1
                let delay = Self.eventFeedBackoff.delay(afterAttempt: failures)
                daemon.log.warning("events", "event feed: \(error); again in \(delay)")
                try? await Task.sleep(for: delay)
            }
        }
    }

    private var cursorPath: String { daemon.stateDirectory + "/events.cursor" }

    /// Keeps the feed's position for the next start: replaced atomically,
    /// 0600 whatever the umask (Foundation's writes would make it 0666 less
    /// the umask). Best effort: without it the next start takes the feed's
    /// current position again.
    private func writeCursor(_ cursor: String) {
        try? DurableFile.replace(cursorPath, with: Array(cursor.utf8))
    }

    /// The event feed without a cursor starts at the moment of the first
    /// poll: an event between the daemon's start and that poll (a revoked
    /// write permission, say) would be missed. So before the daemon says it
    /// is ready, a first start takes the feed's current position (a poll that
    /// does not wait), at most a few seconds, so an unreachable server does
    /// not hold the daemon back (the event loop then starts from its first poll).
    private func establishFeedPosition() async {
        guard daemon.isLoggedIn, !FileManager.default.fileExists(atPath: cursorPath) else { return }
        let daemon = daemon
        let probe = Task { try? await daemon.pollEvents(after: nil, wait: 0) }
        let timer = Task {
            try? await Task.sleep(for: .seconds(3))
            probe.cancel()
        }
        defer { timer.cancel() }
        if let position = await probe.value {
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
}
