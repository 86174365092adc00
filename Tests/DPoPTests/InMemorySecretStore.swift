import Foundation
import KeychainInterface
import Synchronization

/// A ``KeychainInterface/SecretStore`` in memory, with an optional delay on
/// writes so that tests can widen the window in which two creators race.
final class InMemorySecretStore: SecretStore {
    private let items = Mutex<[SecretItemKey: SecretValue]>([:])
    private let writeDelay: TimeInterval
    private let writes = Mutex(0)

    init(writeDelay: TimeInterval = 0) { self.writeDelay = writeDelay }

    /// How many writes happened.
    var writeCount: Int { writes.withLock { $0 } }

    func read(_ key: SecretItemKey) throws -> SecretValue? { items.withLock { $0[key] } }

    func write(_ value: SecretValue, for key: SecretItemKey) throws {
        if writeDelay > 0 { Thread.sleep(forTimeInterval: writeDelay) }
        items.withLock { $0[key] = value }
        writes.withLock { $0 += 1 }
    }

    func delete(_ key: SecretItemKey) throws { _ = items.withLock { $0.removeValue(forKey: key) } }

    func keys(accessGroup: String) throws -> [SecretItemKey] {
        items.withLock { Array($0.keys.filter { $0.accessGroup == accessGroup }) }
    }
}
