import Dispatch
import Synchronization

/// Counts the requests between their request line and their completion, so
/// that a graceful stop can wait for them (with a deadline).
final class InFlightRequests: Sendable {
    private let group = DispatchGroup()
    private let current = Atomic<Int>(0)

    /// A request began.
    func enter() {
        group.enter()
        current.add(1, ordering: .relaxed)
    }

    /// A request ended (exactly once per ``enter()``).
    func leave() {
        current.subtract(1, ordering: .relaxed)
        group.leave()
    }

    /// The requests in flight now.
    var count: Int { current.load(ordering: .relaxed) }

    /// Waits until no request is in flight, or the grace period ends.
    /// - Parameter gracePeriod: the longest wait.
    /// - Returns: true when every request ended in time.
    func waitUntilIdle(gracePeriod: Duration) -> Bool {
        let (seconds, attoseconds) = gracePeriod.components
        let nanos = max(0, seconds) * 1_000_000_000 + max(0, attoseconds) / 1_000_000_000
        return group.wait(timeout: .now() + .nanoseconds(Int(clamping: nanos))) == .success
    }
}
