import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Wakes long polls when an event is written.
///
/// A request that writes an event notes it (``noteWritten()``) and wakes
/// the polls once it is done (``wakeIfWritten()``), when its transactions
/// have committed: a poll woken earlier would look before the event is
/// visible and wait again. Events written by another process
/// (`share-server admin …` against the same database) do not signal; long
/// polls therefore also re-check the database at a short interval.
final class EventSignal: @unchecked Sendable {
    private let condition = NSCondition()
    private var generation: UInt64 = 0
    private var stopping = false

    /// Per thread: whether the request running on it wrote an event (each
    /// request runs on one thread from its start to its answer).
    private static let written: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Notes that the request on this thread wrote an event.
    func noteWritten() {
        pthread_setspecific(Self.written, UnsafeRawPointer(bitPattern: 1))
    }

    /// Wakes every waiter if the request on this thread wrote an event; called
    /// when the request's work (and every commit of it) is done.
    func wakeIfWritten() {
        guard pthread_getspecific(Self.written) != nil else { return }
        pthread_setspecific(Self.written, nil)
        wakeAll()
    }

    /// Wakes every waiter.
    func wakeAll() {
        condition.lock()
        generation &+= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Wakes every waiter for good: the server is stopping, so long polls
    /// answer now instead of holding the shutdown for their whole wait, and
    /// polls that arrive during the grace period do not start waiting.
    func stop() {
        condition.lock()
        stopping = true
        generation &+= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Whether ``stop()`` was called.
    var isStopping: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopping
    }

    /// The current generation, taken before checking for events.
    var current: UInt64 {
        condition.lock()
        defer { condition.unlock() }
        return generation
    }

    /// Waits until the generation moves past `seen`, the server stops, or
    /// `deadline` passes.
    /// - Returns: true when woken by a new event or by ``stop()``.
    func wait(after seen: UInt64, until deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while generation == seen && !stopping {
            if !condition.wait(until: deadline) { return generation != seen || stopping }
        }
        return true
    }
}
