/// A server's nonce policy for one request (RFC 9449 section 8): which
/// nonces it accepts now, and which one it tells the client to use next.
public struct DPoPNonceRequirement: Hashable, Sendable {
    /// Nonces a proof may carry (typically the current one and the one
    /// before it, so a rotation does not fail requests in flight).
    public var acceptedNonces: Set<String>
    /// The nonce sent in `DPoP-Nonce` when the proof's nonce is missing or not accepted.
    public var nonceToSend: String

    /// Makes a requirement.
    /// - Parameters:
    ///   - acceptedNonces: the nonces accepted now.
    ///   - nonceToSend: the nonce to hand out with a rejection.
    public init(acceptedNonces: Set<String>, nonceToSend: String) {
        self.acceptedNonces = acceptedNonces
        self.nonceToSend = nonceToSend
    }
}
