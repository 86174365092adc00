public import ShareKitDPoPInterface
import Synchronization

/// A test double of ``ShareKitDPoPInterface/DPoPNonceCache`` in memory, for one process.
public final class InMemoryNonceCache: DPoPNonceCache {
    private let nonces = Mutex<[String: String]>([:])

    /// Makes an empty cache.
    public init() {}

    /// The latest nonce of an origin.
    /// - Parameter origin: the canonical origin.
    /// - Returns: the nonce, or nil.
    public func nonce(forOrigin origin: String) -> String? {
        nonces.withLock { $0[origin] }
    }

    /// Remembers the latest nonce of an origin.
    /// - Parameters:
    ///   - nonce: the nonce.
    ///   - origin: the canonical origin.
    public func store(_ nonce: String, forOrigin origin: String) {
        nonces.withLock { $0[origin] = nonce }
    }
}
