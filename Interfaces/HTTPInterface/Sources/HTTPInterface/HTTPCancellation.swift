import Synchronization

/// A handle that cancels requests from outside the task that sends them
/// (a person pressing cancel, an upload's time budget running out).
///
/// One handle may serve many requests (every part of an upload): once
/// cancelled it stays cancelled, and requests given it later fail at once
/// with ``HTTPClientError/cancelled``. Cancelling the sending task has the
/// same effect for that task's request. Safe to use from any thread.
public final class HTTPCancellation: Sendable {
    private struct State {
        var cancelled = false
        var nextID = 0
        var handlers: [Int: @Sendable () -> Void] = [:]
    }

    private let state = Mutex(State())

    /// Makes a handle that is not cancelled.
    public init() {}

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Cancels every request using this handle, now and later. Clients end
    /// a transfer in progress promptly (they do not wait for the next byte).
    /// Calling it again does nothing.
    public func cancel() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.cancelled else { return [] }
            state.cancelled = true
            defer { state.handlers = [:] }
            return Array(state.handlers.values)
        }
        // Outside the lock: a handler may take its own locks.
        for handler in handlers { handler() }
    }

    /// Registers a function to call on cancellation; clients use it to wake
    /// a transfer. Called at once (on this thread) when already cancelled.
    /// - Parameter handler: the function, called at most once, on the thread that cancels.
    /// - Returns: a registration id for ``removeHandler(_:)``, or nil when
    ///   the handle was already cancelled and `handler` has run.
    public func addHandler(_ handler: @escaping @Sendable () -> Void) -> Int? {
        let id = state.withLock { state -> Int? in
            guard !state.cancelled else { return nil }
            state.nextID += 1
            state.handlers[state.nextID] = handler
            return state.nextID
        }
        if id == nil { handler() }
        return id
    }

    /// Removes a registration when its request has ended, so a long-lived
    /// handle does not keep finished requests alive.
    /// - Parameter id: the id ``addHandler(_:)`` returned.
    public func removeHandler(_ id: Int) {
        _ = state.withLock { $0.handlers.removeValue(forKey: id) }
    }
}
