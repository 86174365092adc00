import Synchronization

/// The id the notification server gave the notification of each push
/// thread (`aps.thread-id`), so the next push of the thread shows in its
/// place (the freedesktop `replaces_id`).
///
/// Thread ids come from pushes, which are hostile input: the table keeps
/// at most ``limit`` threads and forgets the oldest one first, so a flood
/// of made-up threads cannot grow it. A forgotten thread's next push is a
/// new notification, which is all that is lost.
final class ThreadNotificationIDs: Sendable {
    /// The most threads remembered.
    static let limit = 256

    private struct State {
        var ids: [String: UInt32] = [:]
        /// Threads in the order they were last set, oldest first.
        var order: [String] = []
    }

    private let state = Mutex(State())

    /// The id of a thread's notification, nil when none is known.
    /// - Parameter thread: the push's thread.
    func id(of thread: String) -> UInt32? {
        state.withLock { $0.ids[thread] }
    }

    /// Remembers the id of a thread's notification.
    /// - Parameters:
    ///   - id: what the notification server answered.
    ///   - thread: the push's thread.
    func set(_ id: UInt32, for thread: String) {
        state.withLock { state in
            state.order.removeAll { $0 == thread }
            state.order.append(thread)
            state.ids[thread] = id
            while state.order.count > Self.limit {
                state.ids[state.order.removeFirst()] = nil
            }
        }
    }
}
