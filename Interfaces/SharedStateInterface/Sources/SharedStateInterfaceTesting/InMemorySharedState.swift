public import ShareKitSharedStateInterface
import Synchronization

/// A test double of ``ShareKitSharedStateInterface/SharedStateStore`` in memory that
/// enforces the allow-list of keys.
public final class InMemorySharedState: SharedStateStore {
    private let values = Mutex<[String: String]>([:])

    /// Makes an empty store.
    public init() {}

    /// The value of a key.
    /// - Parameter key: the key.
    /// - Returns: the value, or nil.
    public func value(for key: SharedStateKey) throws -> String? { values.withLock { $0[key.name] } }

    /// Sets or removes a value.
    /// - Parameters:
    ///   - value: the value, or nil to remove it.
    ///   - key: the key.
    /// - Throws: ``ShareKitSharedStateInterface/SharedStateError/keyNotAllowed(_:)`` for a key off the allow-list.
    public func set(_ value: String?, for key: SharedStateKey) throws {
        guard SharedStateKey.isAllowed(key.name) else { throw SharedStateError.keyNotAllowed(key.name) }
        values.withLock { $0[key.name] = value }
    }

    /// Replaces a value with what `transform` makes of it, atomically.
    /// - Parameters:
    ///   - key: the key.
    ///   - transform: maps the old value to the new one.
    /// - Returns: the new value.
    @discardableResult
    public func update(_ key: SharedStateKey, _ transform: (String?) throws -> String?) throws -> String? {
        try values.withLock { values in
            let new = try transform(values[key.name])
            values[key.name] = new
            return new
        }
    }

    /// Every value.
    /// - Returns: the values by key name.
    public func snapshot() throws -> [String: String] { values.withLock { $0 } }

    /// Puts values under any name, retired ones included: what an earlier
    /// version left behind, for tests of the migration.
    /// - Parameter raw: the values by key name.
    public func seed(_ raw: [String: String]) { values.withLock { $0.merge(raw) { $1 } } }

    /// Hands the retired values to `move` and removes them when it returns.
    /// - Parameter move: gets the retired values by key name.
    /// - Returns: whether anything was moved.
    /// - Throws: what `move` throws (the values stay then).
    @discardableResult
    public func takeRetiredValues(_ move: ([String: String]) throws -> Void) throws -> Bool {
        try values.withLock { values in
            let retired = values.filter { SharedStateKey.isRetired($0.key) }
            guard !retired.isEmpty else { return false }
            try move(retired)
            for name in retired.keys { values[name] = nil }
            return true
        }
    }
}
