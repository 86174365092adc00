import Synchronization

/// The push notifications the daemon shows and waits on: a notification
/// with a default action keeps its `notify-send` running until it is
/// clicked or closed, which may take hours, so each waits in a task of its
/// own and the event feed goes on.
///
/// At most ``limit`` wait at once: when another arrives, the oldest stops
/// waiting (it stays on the desktop, without its action), so a flood of
/// pushes cannot pile up programs. ``stopAll()`` ends every wait when the
/// daemon stops.
final class NotificationWaits: Sendable {
    /// The most notifications waiting for a click at once.
    static let limit = 16

    private struct State {
        var nextID: UInt64 = 0
        var waits: [(id: UInt64, task: Task<Void, Never>)] = []
        var stopped = false
    }

    private let state = Mutex(State())

    /// Starts one wait (nothing after ``stopAll()``).
    /// - Parameter work: shows the notification and waits for it.
    func start(_ work: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            guard !state.stopped else { return }
            let id = state.nextID
            state.nextID += 1
            // The task takes the lock only after this closure let it go.
            let task = Task { [weak self] in
                await work()
                self?.finished(id)
            }
            state.waits.append((id, task))
            if state.waits.count > Self.limit { state.waits.removeFirst().task.cancel() }
        }
    }

    /// Ends every wait and waits until each has ended.
    func stopAll() async {
        let tasks = state.withLock { state -> [Task<Void, Never>] in
            state.stopped = true
            defer { state.waits = [] }
            return state.waits.map(\.task)
        }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }

    private func finished(_ id: UInt64) {
        state.withLock { $0.waits.removeAll { $0.id == id } }
    }
}
