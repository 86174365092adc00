public import ShareKitKeychainInterface
public import ShareKitSessionsInterface

/// Keeps each family's tokens as one item of the shared keychain group:
/// service `session.app` or `session.share_ext`, account `default`, scoped
/// to the server's origin, so the CLI and the daemon find the same items and
/// two servers never share one.
///
/// The value is a small JSON document holding both tokens and their times;
/// it is written through ``ShareKitKeychainInterface/SecretStore/write(_:for:)``,
/// which replaces the item atomically and durably, so a crash right after a
/// write leaves the new pair. Errors name the item, never a token.
public struct SessionTokenStore: SessionTokenStorage {
    /// The secret store of the access group.
    public let secretStore: any SecretStore
    /// The keychain access group the CLI and the daemon share.
    public let accessGroup: String
    /// The server the sessions belong to (`scheme://host[:port]`).
    public let serverOrigin: String

    /// Makes a store.
    /// - Parameters:
    ///   - secretStore: the keychain.
    ///   - accessGroup: the shared access group (`ClientAssembly.accessGroup`).
    ///   - serverOrigin: the server's origin; a trailing `/` is dropped.
    public init(secretStore: any SecretStore, accessGroup: String, serverOrigin: String) {
        self.secretStore = secretStore
        self.accessGroup = accessGroup
        self.serverOrigin = serverOrigin.hasSuffix("/") ? String(serverOrigin.dropLast()) : serverOrigin
    }

    /// The keychain item of a family.
    /// - Parameter role: the family.
    /// - Returns: its key.
    public func itemKey(for role: SessionRole) -> SecretItemKey {
        SecretItemKey(accessGroup: accessGroup, service: "session." + role.rawValue, scope: serverOrigin)
    }

    /// Reads a family's tokens.
    /// - Parameter role: the family.
    /// - Returns: the tokens, or nil when there is no item.
    /// - Throws: ``ShareKitSessionsInterface/SessionError/failed(_:)`` when the keychain
    ///   cannot be read or the item is not a stored session.
    public func read(_ role: SessionRole) throws(SessionError) -> SessionTokens? {
        let key = itemKey(for: role)
        let value: SecretValue?
        do {
            value = try secretStore.read(key)
        } catch {
            throw .failed("cannot read the \(role) session from the keychain: \(error)")
        }
        guard let value else { return nil }
        guard let tokens = StoredSessionCoding.decode(value) else {
            throw .failed("the keychain item \(key) does not hold a stored session")
        }
        return tokens
    }

    /// Replaces a family's tokens atomically and durably.
    /// - Parameters:
    ///   - tokens: the new tokens.
    ///   - role: the family.
    /// - Throws: ``ShareKitSessionsInterface/SessionError/failed(_:)`` when the keychain refused.
    public func write(_ tokens: SessionTokens, for role: SessionRole) throws(SessionError) {
        do {
            try secretStore.write(StoredSessionCoding.encode(tokens), for: itemKey(for: role))
        } catch {
            throw .failed("cannot store the \(role) session in the keychain: \(error)")
        }
    }

    /// Deletes a family's tokens.
    /// - Parameter role: the family.
    /// - Throws: ``ShareKitSessionsInterface/SessionError/failed(_:)`` when the keychain refused.
    public func delete(_ role: SessionRole) throws(SessionError) {
        do {
            try secretStore.delete(itemKey(for: role))
        } catch {
            throw .failed("cannot delete the \(role) session from the keychain: \(error)")
        }
    }
}
