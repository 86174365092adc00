/// The client's memory of the latest `DPoP-Nonce` of each server origin
/// (RFC 9449 section 8), shared by the programs that talk to that server.
///
/// Implementations must be safe to use from several threads; one backed by
/// the app group's shared state also serves several processes.
public protocol DPoPNonceCache: Sendable {
    /// The latest nonce of an origin.
    /// - Parameter origin: `scheme://host[:port]` in canonical form (see the DPoP module's `HTTPTargetURI`).
    /// - Returns: the nonce, or nil when the server never sent one.
    /// - Throws: the backing store's error when it cannot be read.
    func nonce(forOrigin origin: String) throws -> String?

    /// Remembers the latest nonce of an origin, replacing the one before.
    /// - Parameters:
    ///   - nonce: the `DPoP-Nonce` value.
    ///   - origin: the canonical origin.
    /// - Throws: the backing store's error when it cannot be written.
    func store(_ nonce: String, forOrigin origin: String) throws
}
