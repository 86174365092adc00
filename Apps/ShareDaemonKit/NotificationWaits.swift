import Synchronization

/// The notifications the daemon shows, each in a task of its own, so the
/// event feed goes on: a notification with a default action keeps its
/// `notify-send` running until it is clicked or closed, which may take
/// hours, and a click runs `xdg-open`.
///
/// A task ends only when every program it started has ended and been
/// reaped (``ShareKitPushPreview/NotificationPresenter/present(_:)`` returns only
/// then, also when it is cancelled), so the tasks counted here are the
/// notification programs alive, including those stopped but not yet gone.
/// At most ``limit`` run at once. When another notification comes:
///
/// - the oldest running one that was not stopped yet is stopped (its
///   program gets SIGTERM, then SIGKILL; it stays on the desktop without
///   its action), making room once its program is gone;
/// - the new one waits for that room; only the newest waits: one waiting
///   already is dropped, with a log line, so a flood of pushes can never
///   pile up programs or waiting work.
///
/// A notification of a group (a push's thread) stops the running ones of
/// the same group first: it takes their place on the desktop (the same
/// notification id), and only the newest may answer a click, so a click
/// opens one link once.
///
/// ``stopAll()`` drops what waits, stops every program and returns once all are reaped.
final class NotificationWaits: Sendable {
    /// The most notification programs alive at once, unless the daemon is told otherwise.
    static let defaultLimit = 16

    /// The most notification programs alive at once.
    let limit: Int
    private let log: DaemonLog?

    private struct Wait {
        let id: UInt64
        let name: String
        let group: String?
        let task: Task<Void, Never>
        var stopped = false
    }

    private struct Pending {
        let name: String
        let group: String?
        let work: @Sendable () async -> Void
    }

    private struct State {
        var nextID: UInt64 = 0
        var running: [Wait] = []
        var pending: Pending?
        var stopped = false
    }

    private let state = Mutex(State())

    /// - Parameters:
    ///   - limit: the most programs alive at once (at least 1).
    ///   - log: where a dropped or delayed notification is told.
    init(limit: Int = NotificationWaits.defaultLimit, log: DaemonLog? = nil) {
        self.limit = max(1, limit)
        self.log = log
    }

    /// How many notifications run now (their programs alive), and whether one waits.
    var counts: (running: Int, waiting: Bool) {
        state.withLock { ($0.running.count, $0.pending != nil) }
    }

    /// Shows one notification (nothing after ``stopAll()``).
    /// - Parameters:
    ///   - name: the notification's id, for the log.
    ///   - group: the group it belongs to (a push's thread): the running
    ///     notifications of the group are stopped, it takes their place.
    ///   - work: shows the notification and waits for it; it must end once
    ///     its programs are reaped, also when cancelled.
    func start(_ name: String, group: String? = nil, _ work: @escaping @Sendable () async -> Void) {
        var lines: [String] = []
        state.withLock { state in
            guard !state.stopped else { return }
            if let group {
                for index in state.running.indices
                where state.running[index].group == group && !state.running[index].stopped {
                    state.running[index].stopped = true
                    state.running[index].task.cancel()
                }
            }
            guard state.running.count >= limit else {
                launch(name, group, work, in: &state)
                return
            }
            if let index = state.running.firstIndex(where: { !$0.stopped }) {
                state.running[index].stopped = true
                state.running[index].task.cancel()
                lines.append(
                    "notification \(state.running[index].name) stopped waiting for a click: "
                        + "\(limit) notification programs run (the limit)")
            }
            if let dropped = state.pending {
                lines.append(
                    "notification \(dropped.name) dropped: \(limit) notification programs run (the limit) "
                        + "and a newer one waits")
            }
            state.pending = Pending(name: name, group: group, work: work)
            lines.append("notification \(name) waits for one of the \(limit) notification programs to end")
        }
        for line in lines { log?.warning("push", line) }
    }

    /// Stops every notification, drops the one waiting, and returns once
    /// every program is reaped (each gets SIGTERM, SIGKILL after a grace).
    func stopAll() async {
        let (tasks, dropped) = state.withLock { state -> ([Task<Void, Never>], String?) in
            state.stopped = true
            defer { state.pending = nil }
            return (state.running.map(\.task), state.pending?.name)
        }
        if let dropped { log?.info("push", "notification \(dropped) dropped: the daemon stops") }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }

    /// Waits until every notification started so far has ended by itself
    /// (`--once`: a delivery notice is shown before the process exits).
    func waitForAll() async {
        while true {
            let tasks = state.withLock { state in state.running.map(\.task) }
            guard !tasks.isEmpty else { return }
            for task in tasks { await task.value }
        }
    }

    /// Starts a notification's task (with the lock held).
    private func launch(
        _ name: String, _ group: String?, _ work: @escaping @Sendable () async -> Void, in state: inout State
    ) {
        let id = state.nextID
        state.nextID += 1
        // The task takes the lock only after this call let it go.
        let task = Task { [weak self] in
            await work()
            self?.finished(id)
        }
        state.running.append(Wait(id: id, name: name, group: group, task: task))
    }

    /// One notification's programs are gone: its room goes to the one waiting.
    private func finished(_ id: UInt64) {
        state.withLock { state in
            state.running.removeAll { $0.id == id }
            if !state.stopped, state.running.count < limit, let next = state.pending {
                state.pending = nil
                launch(next.name, next.group, next.work, in: &state)
            }
        }
    }
}
