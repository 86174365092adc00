import SharedStateInterface

/// Locks for a single test process with one provider: every lock is free.
struct NoLocks: CrossProcessLocking {
    func withExclusiveLock<T>(named name: String, _ body: () throws -> T) throws -> T { try body() }
    func withExclusiveLockIfAvailable<T>(named name: String, _ body: () throws -> T) throws -> T? { try body() }
    func withExclusiveLock<T>(
        named name: String, pollingEvery interval: Duration, isolation: isolated (any Actor)?,
        _ body: () async throws -> T
    ) async throws -> T { try await body() }
}
