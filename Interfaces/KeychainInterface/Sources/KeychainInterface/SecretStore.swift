/// A store of secret items with the semantics of a shared keychain group.
///
/// Implementations are plugins chosen by configuration: the embedded file
/// store (the default) and the freedesktop Secret Service. Callers hold
/// nothing but this protocol, so either backend serves every program.
/// Implementations must be safe to use from several threads and from several
/// processes at once, and must never put a value into an error or a log.
public protocol SecretStore: Sendable {
    /// Reads one item.
    /// - Returns: the value, or nil when there is no such item.
    /// - Throws: ``KeychainError`` when the store cannot be read safely.
    func read(_ key: SecretItemKey) throws -> SecretValue?

    /// Writes one item, replacing any previous value atomically and durably:
    /// once this returns, a crash leaves either the old or the new value.
    /// - Throws: ``KeychainError`` when the value could not be stored.
    func write(_ value: SecretValue, for key: SecretItemKey) throws

    /// Deletes one item; deleting a missing item is not an error.
    /// - Throws: ``KeychainError`` when the store cannot be changed.
    func delete(_ key: SecretItemKey) throws

    /// Lists the keys of an access group (never the values).
    /// - Throws: ``KeychainError`` when the store cannot be read.
    func keys(accessGroup: String) throws -> [SecretItemKey]
}

extension SecretStore {
    /// Deletes every item of an access group whose service matches, e.g. all
    /// session tokens on logout.
    /// - Throws: ``KeychainError`` from ``keys(accessGroup:)`` or ``delete(_:)``.
    public func deleteAll(accessGroup: String, where matches: (SecretItemKey) -> Bool = { _ in true }) throws {
        for key in try keys(accessGroup: accessGroup) where matches(key) {
            try delete(key)
        }
    }
}
