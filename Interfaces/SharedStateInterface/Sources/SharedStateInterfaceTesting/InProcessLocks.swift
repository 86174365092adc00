import Foundation
public import ShareKitSharedStateInterface
import Synchronization

/// A test double of ``ShareKitSharedStateInterface/CrossProcessLocking`` within one
/// process (a single lock, whatever the name): enough to show that code does
/// its work under the lock, and free whenever only one caller uses it.
public final class InProcessLocks: CrossProcessLocking {
    private let held = Mutex(false)

    /// Makes the lock, free.
    public init() {}

    private func tryAcquire() -> Bool {
        held.withLock { held in
            guard !held else { return false }
            held = true
            return true
        }
    }

    private func release() { held.withLock { $0 = false } }

    /// Runs `body` holding the lock, waiting for it.
    /// - Parameters:
    ///   - name: the lock's name (ignored: there is one lock).
    ///   - body: the work.
    /// - Returns: what `body` returns.
    public func withExclusiveLock<T>(named name: String, _ body: () throws -> T) throws -> T {
        while !tryAcquire() { Thread.sleep(forTimeInterval: 0.001) }
        defer { release() }
        return try body()
    }

    /// Runs `body` holding the lock if it is free now.
    /// - Parameters:
    ///   - name: the lock's name (ignored: there is one lock).
    ///   - body: the work.
    /// - Returns: what `body` returns, or nil when the lock was held.
    public func withExclusiveLockIfAvailable<T>(named name: String, _ body: () throws -> T) throws -> T? {
        guard tryAcquire() else { return nil }
        defer { release() }
        return try body()
    }

    /// Runs `body` holding the lock, polling for it without blocking a thread.
    /// - Parameters:
    ///   - name: the lock's name (ignored: there is one lock).
    ///   - interval: how often to try.
    ///   - isolation: the caller's actor.
    ///   - body: the work.
    /// - Returns: what `body` returns.
    public func withExclusiveLock<T>(
        named name: String, pollingEvery interval: Duration, isolation: isolated (any Actor)?,
        _ body: () async throws -> T
    ) async throws -> T {
        while !tryAcquire() { try await Task.sleep(for: interval) }
        defer { release() }
        return try await body()
    }
}
