public import ShareKitDPoPInterface
public import ShareKitSharedStateInterface

/// A ``ShareKitDPoPInterface/DPoPNonceCache`` in the app group's shared state, under
/// `SharedStateKey.dpopNonce(origin:)`, so the CLI and the daemon use the
/// nonce either of them last received (one cache per server origin, shared
/// by every process of the app group; docs/protocol.md, "Nonces").
public struct SharedStateNonceCache: DPoPNonceCache {
    private let state: any SharedStateStore

    /// Makes a cache over a shared state.
    /// - Parameter state: the container's key-value state.
    public init(state: any SharedStateStore) {
        self.state = state
    }

    /// The latest nonce of an origin.
    /// - Parameter origin: the canonical origin.
    /// - Returns: the nonce, or nil.
    /// - Throws: `SharedStateError` when the state cannot be read.
    public func nonce(forOrigin origin: String) throws -> String? {
        try state.value(for: .dpopNonce(origin: origin))
    }

    /// Remembers the latest nonce of an origin.
    /// - Parameters:
    ///   - nonce: the nonce.
    ///   - origin: the canonical origin.
    /// - Throws: `SharedStateError` when the state cannot be written.
    public func store(_ nonce: String, forOrigin origin: String) throws {
        try state.set(nonce, for: .dpopNonce(origin: origin))
    }
}
