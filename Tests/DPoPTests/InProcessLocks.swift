import Foundation
import SharedStateInterface
import Synchronization

/// ``SharedStateInterface/CrossProcessLocking`` within one process (a single
/// lock, whatever the name): enough to show that the device key store
/// creates its key under the lock.
final class InProcessLocks: CrossProcessLocking {
    private let held = Mutex(false)

    private func tryAcquire() -> Bool {
        held.withLock { held in
            guard !held else { return false }
            held = true
            return true
        }
    }

    private func release() { held.withLock { $0 = false } }

    func withExclusiveLock<T>(named name: String, _ body: () throws -> T) throws -> T {
        while !tryAcquire() { Thread.sleep(forTimeInterval: 0.001) }
        defer { release() }
        return try body()
    }

    func withExclusiveLockIfAvailable<T>(named name: String, _ body: () throws -> T) throws -> T? {
        guard tryAcquire() else { return nil }
        defer { release() }
        return try body()
    }

    func withExclusiveLock<T>(
        named name: String, pollingEvery interval: Duration, isolation: isolated (any Actor)?,
        _ body: () async throws -> T
    ) async throws -> T {
        while !tryAcquire() { try await Task.sleep(for: interval) }
        defer { release() }
        return try await body()
    }
}
