import SharedStateInterface
import Synchronization

/// A ``SharedStateInterface/SharedStateStore`` in memory that enforces the allow-list.
final class InMemorySharedState: SharedStateStore {
    private let values = Mutex<[String: String]>([:])

    func value(for key: SharedStateKey) throws -> String? { values.withLock { $0[key.name] } }

    func set(_ value: String?, for key: SharedStateKey) throws {
        guard SharedStateKey.isAllowed(key.name) else { throw SharedStateError.keyNotAllowed(key.name) }
        values.withLock { $0[key.name] = value }
    }

    @discardableResult
    func update(_ key: SharedStateKey, _ transform: (String?) throws -> String?) throws -> String? {
        try values.withLock { values in
            let new = try transform(values[key.name])
            values[key.name] = new
            return new
        }
    }

    func snapshot() throws -> [String: String] { values.withLock { $0 } }
}
