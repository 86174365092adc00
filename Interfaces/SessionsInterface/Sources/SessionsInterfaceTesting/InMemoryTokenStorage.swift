public import ShareKitSessionsInterface
import Synchronization

/// A test double of ``ShareKitSessionsInterface/SessionTokenStorage``: session tokens
/// in memory, for tests that need no keychain.
public final class InMemoryTokenStorage: SessionTokenStorage {
    private let items = Mutex<[SessionRole: SessionTokens]>([:])

    /// Makes an empty storage.
    public init() {}

    /// The tokens of a role.
    /// - Parameter role: the session role.
    /// - Returns: the tokens, or nil.
    public func read(_ role: SessionRole) throws(SessionError) -> SessionTokens? { items.withLock { $0[role] } }

    /// Keeps the tokens of a role.
    /// - Parameters:
    ///   - tokens: the tokens.
    ///   - role: the session role.
    public func write(_ tokens: SessionTokens, for role: SessionRole) throws(SessionError) {
        items.withLock { $0[role] = tokens }
    }

    /// Forgets the tokens of a role.
    /// - Parameter role: the session role.
    public func delete(_ role: SessionRole) throws(SessionError) { _ = items.withLock { $0.removeValue(forKey: role) } }
}
