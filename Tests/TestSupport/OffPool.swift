import Foundation

/// Runs blocking work on a thread of its own and awaits its result.
///
/// Starting a `share-server` blocks: creating its PostgreSQL database,
/// spawning it, reading its ready line. Called straight from an async test,
/// that wait holds one of the cooperative pool's threads, of which a 2-core
/// machine has two. With tests running side by side, two such waits stall
/// every other test's tasks for as long as they last (a long poll sent
/// 10 s late, a request body left unsent until the server answered
/// `408`). Here the caller's task is suspended instead, and its thread
/// stays free for the others.
/// - Parameter body: the blocking work.
/// - Returns: what `body` returned.
/// - Throws: what `body` threw.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
