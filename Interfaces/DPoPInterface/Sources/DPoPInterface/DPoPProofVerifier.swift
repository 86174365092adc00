/// Checks DPoP proofs (RFC 9449 section 4.3): the server side.
///
/// Implementations must treat the proof as hostile input: bounded sizes, no
/// crash on any bytes, and a distinct ``DPoPError`` case for each reason to
/// refuse. They are safe to use from many threads.
public protocol DPoPProofVerifier: Sendable {
    /// Verifies one proof against the request it came with.
    /// - Parameter input: the proof and what the server knows about the request.
    /// - Returns: the verified claims and the key's thumbprint.
    /// - Throws: the ``DPoPError`` rejection case for the first check that fails,
    ///   or ``DPoPError/storeFailure(_:)`` when the replay store fails.
    func verify(_ input: DPoPVerificationInput) throws(DPoPError) -> DPoPVerifiedProof
}
