import Foundation

/// Wakes long polls when an event is written.
///
/// Events written by another process (`share-server admin …` against the
/// same database) do not signal; long polls therefore also re-check the
/// database at a short interval.
final class EventSignal: @unchecked Sendable {
    private let condition = NSCondition()
    private var generation: UInt64 = 0

    /// Wakes every waiter.
    func wakeAll() {
        condition.lock()
        generation &+= 1
        condition.broadcast()
        condition.unlock()
    }

    /// The current generation, taken before checking for events.
    var current: UInt64 {
        condition.lock()
        defer { condition.unlock() }
        return generation
    }

    /// Waits until the generation moves past `seen` or `deadline` passes.
    /// - Returns: true when woken by a new event.
    func wait(after seen: UInt64, until deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while generation == seen {
            if !condition.wait(until: deadline) { return generation != seen }
        }
        return true
    }
}
