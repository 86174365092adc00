import SessionsInterface
import Synchronization

/// Session storage in memory, for the tests that need no keychain.
final class MemoryTokenStorage: SessionTokenStorage {
    private let items = Mutex<[SessionRole: SessionTokens]>([:])

    func read(_ role: SessionRole) throws(SessionError) -> SessionTokens? { items.withLock { $0[role] } }
    func write(_ tokens: SessionTokens, for role: SessionRole) throws(SessionError) {
        items.withLock { $0[role] = tokens }
    }
    func delete(_ role: SessionRole) throws(SessionError) { _ = items.withLock { $0.removeValue(forKey: role) } }
}
