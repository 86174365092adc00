/// Named exclusive locks that hold across processes, for work that only one
/// program of the app group may do at a time: refreshing the child session
/// (two `share` runs at once must not both refresh), taking over an inbox
/// entry.
///
/// A lock is released when the body returns or throws, and by the operating
/// system when the holding process dies, so a crashed holder never leaves it
/// stuck. Locks are not reentrant: taking a lock the caller already holds
/// waits forever (blocking variant) or reports it busy (`IfAvailable`).
public protocol CrossProcessLocking: Sendable {
    /// Runs `body` holding the lock, blocking the calling thread until it is
    /// free. Use from synchronous code; async code uses
    /// ``withExclusiveLock(named:pollingEvery:isolation:_:)``.
    /// - Parameters:
    ///   - name: the lock, 1 to 100 of `A-Z a-z 0-9 . - _`, not starting with `.`.
    ///   - body: the work to do while holding it.
    /// - Returns: what `body` returns.
    /// - Throws: ``SharedStateError`` when the lock cannot be taken, or what `body` throws.
    func withExclusiveLock<T>(named name: String, _ body: () throws -> T) throws -> T

    /// Runs `body` only when the lock is free right now.
    /// - Parameters:
    ///   - name: the lock.
    ///   - body: the work to do while holding it.
    /// - Returns: what `body` returns, or nil when another holder has the lock
    ///   (`body` did not run).
    /// - Throws: ``SharedStateError`` when the lock cannot be tried, or what `body` throws.
    func withExclusiveLockIfAvailable<T>(named name: String, _ body: () throws -> T) throws -> T?

    /// Runs async `body` holding the lock, waiting for it without blocking a
    /// thread: it tries the lock, and while it is busy sleeps `interval`
    /// between tries. Cancelling the task while waiting throws `CancellationError`.
    /// Callers use ``withExclusiveLock(named:pollingEvery:_:isolation:)``,
    /// which fills in `isolation`.
    /// - Parameters:
    ///   - name: the lock.
    ///   - interval: the pause between tries.
    ///   - isolation: the caller's actor, inherited by `body`.
    ///   - body: the work to do while holding it.
    /// - Returns: what `body` returns.
    /// - Throws: ``SharedStateError``, `CancellationError`, or what `body` throws.
    func withExclusiveLock<T>(
        named name: String, pollingEvery interval: Duration, isolation: isolated (any Actor)?,
        _ body: () async throws -> T
    ) async throws -> T
}

extension CrossProcessLocking {
    /// Runs async `body` holding the lock, on the caller's actor, trying the
    /// lock every `interval` while it is busy (10 to 50 ms suits a token
    /// refresh); see ``withExclusiveLock(named:pollingEvery:isolation:_:)``.
    ///
    /// The `pollingEvery` label is required on purpose: without it, a call
    /// with a synchronous body would pick the blocking variant, which would
    /// hold up a thread of the cooperative pool while another process works.
    /// - Parameters:
    ///   - name: the lock.
    ///   - interval: the pause between tries.
    ///   - body: the work to do while holding it.
    ///   - isolation: the caller's actor (filled in by the compiler).
    /// - Returns: what `body` returns.
    /// - Throws: ``SharedStateError``, `CancellationError` while waiting, or what `body` throws.
    public func withExclusiveLock<T>(
        named name: String, pollingEvery interval: Duration, _ body: () async throws -> T,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> T {
        try await withExclusiveLock(named: name, pollingEvery: interval, isolation: isolation, body)
    }
}
