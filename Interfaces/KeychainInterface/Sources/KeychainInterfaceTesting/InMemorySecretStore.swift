public import Foundation
public import ShareKitKeychainInterface
import Synchronization

/// A test double of ``ShareKitKeychainInterface/SecretStore`` in memory, with an
/// optional delay on writes so that tests can widen the window in which two
/// creators race.
public final class InMemorySecretStore: SecretStore {
    private let items = Mutex<[SecretItemKey: SecretValue]>([:])
    private let writeDelay: TimeInterval
    private let writes = Mutex(0)

    /// Makes an empty store.
    /// - Parameter writeDelay: how long each write sleeps before it stores.
    public init(writeDelay: TimeInterval = 0) { self.writeDelay = writeDelay }

    /// How many writes happened.
    public var writeCount: Int { writes.withLock { $0 } }

    /// The secret of a key.
    /// - Parameter key: the item.
    /// - Returns: the secret, or nil.
    public func read(_ key: SecretItemKey) throws -> SecretValue? { items.withLock { $0[key] } }

    /// Stores a secret.
    /// - Parameters:
    ///   - value: the secret.
    ///   - key: the item.
    public func write(_ value: SecretValue, for key: SecretItemKey) throws {
        if writeDelay > 0 { Thread.sleep(forTimeInterval: writeDelay) }
        items.withLock { $0[key] = value }
        writes.withLock { $0 += 1 }
    }

    /// Deletes a secret.
    /// - Parameter key: the item.
    public func delete(_ key: SecretItemKey) throws { _ = items.withLock { $0.removeValue(forKey: key) } }

    /// The keys of an access group.
    /// - Parameter accessGroup: the group.
    /// - Returns: its keys, in no order.
    public func keys(accessGroup: String) throws -> [SecretItemKey] {
        items.withLock { Array($0.keys.filter { $0.accessGroup == accessGroup }) }
    }
}
