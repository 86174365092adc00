/// Makes DPoP proofs (RFC 9449 section 4) with one key: the client side.
///
/// Implementations are safe to use from many threads; each proof gets a
/// fresh `jti`.
public protocol DPoPProofSigner: Sendable {
    /// The public key every proof carries in its header.
    var publicJWK: JWK { get }

    /// The key's JWK SHA-256 thumbprint (RFC 7638), base64url: what a server
    /// stores as `cnf.jkt` when it binds a session to this key.
    var thumbprint: String { get }

    /// Makes a proof for one HTTP request.
    /// - Parameters:
    ///   - method: the request method, exactly as sent (`GET`, `POST`).
    ///   - url: the request URL; query and fragment are dropped and the rest
    ///     canonicalized for `htu`.
    ///   - accessToken: the access token sent with `Authorization: DPoP`, for
    ///     `ath`; nil at token endpoints.
    ///   - nonce: the server's latest `DPoP-Nonce` for this origin, if any.
    /// - Returns: the compact JWS for the `DPoP` request header.
    /// - Throws: ``DPoPError/invalidURL(_:)``, ``DPoPError/invalidMethod`` for
    ///   unusable inputs, ``DPoPError/signingFailed(_:)`` when signing fails.
    func makeProof(method: String, url: String, accessToken: String?, nonce: String?) throws(DPoPError) -> String
}
