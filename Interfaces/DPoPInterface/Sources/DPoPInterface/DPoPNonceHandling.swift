/// The client's nonce logic (RFC 9449 section 8): which nonce to put in a
/// proof, and what a response means for it.
///
/// Every response's `DPoP-Nonce` is remembered for its origin. A response is
/// a nonce challenge when it is `400` with `{"error":"use_dpop_nonce"}` (token
/// endpoints) or `401` with `WWW-Authenticate: DPoP error="use_dpop_nonce"`
/// (resources). A challenge is answered by repeating the request exactly
/// once, and only when the nonce changed.
public protocol DPoPNonceHandling: Sendable {
    /// The nonce to put in the next proof for a URL.
    /// - Parameter url: the request URL.
    /// - Returns: the origin's latest nonce, or nil when none is known.
    /// - Throws: ``DPoPError/invalidURL(_:)``, or ``DPoPError/storeFailure(_:)``
    ///   when the nonce cache cannot be read.
    func nonce(for url: String) throws(DPoPError) -> String?

    /// Looks at a response: stores any `DPoP-Nonce` and decides whether to repeat.
    /// - Parameters:
    ///   - status: the HTTP status code.
    ///   - headers: the response headers (names compared case-insensitively).
    ///   - body: the response body, read only for a `400` (at most 64 KiB of it).
    ///   - url: the request URL.
    ///   - sentNonce: the nonce the request's proof carried, if any.
    ///   - isRetry: whether the request already was the repetition.
    /// - Returns: the decision.
    /// - Throws: ``DPoPError/invalidURL(_:)``, or ``DPoPError/storeFailure(_:)``
    ///   when the nonce cache cannot be written.
    func evaluate(
        status: Int, headers: [String: String], body: [UInt8], url: String, sentNonce: String?, isRetry: Bool
    ) throws(DPoPError) -> DPoPNonceDecision
}
