import Foundation
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

extension ServerProcess {
    /// Starts a server on `engine`, or cancels the running test (a skip
    /// with the reason) where PostgreSQL cannot run on this machine or the
    /// run leaves the engine out (``ShareKitTestSupport/ServerEngine/selected``).
    /// - Parameters: as ``ServerProcess/init(engine:seed:extraArguments:directory:listen:database:)``.
    /// - Returns: the started server.
    /// - Throws: ``ServerProcessError`` when it does not start.
    static func start(
        _ engine: ServerEngine, seed: [String: Any]? = nil, extraArguments: [String] = [],
        directory: TemporaryDirectory? = nil, listen: String = "127.0.0.1:0", database: String? = nil
    ) async throws -> ServerProcess {
        guard ServerEngine.selected.contains(engine) else {
            try Test.cancel("skipped: \(engine) is not in SHAREKIT_TEST_ENGINES")
        }
        // The seed is JSON objects made for this call alone.
        nonisolated(unsafe) let seed = seed
        do {
            // Off the cooperative pool: see ShareKitTestSupport's offPool.
            return try await offPool {
                try ServerProcess(
                    engine: engine, seed: seed, extraArguments: extraArguments, directory: directory, listen: listen,
                    database: database)
            }
        } catch let unavailable as TemporaryPostgres.Unavailable {
            try Test.cancel("skipped on PostgreSQL: \(unavailable)")
        }
    }
}
