/// The result of a successful verification: the proof's key and claims,
/// for binding a new session (`cnf.jkt`) and for audit records.
public struct DPoPVerifiedProof: Hashable, Sendable {
    /// The proof's public key.
    public var jwk: JWK
    /// Its JWK SHA-256 thumbprint (RFC 7638), base64url: the value for `cnf.jkt`.
    public var thumbprint: String
    /// The proof's unique id.
    public var jti: String
    /// The `htm` claim.
    public var method: String
    /// The `htu` claim in canonical form.
    public var url: String
    /// The `iat` claim, Unix seconds.
    public var issuedAt: Int64
    /// The `nonce` claim, if present.
    public var nonce: String?
    /// The `ath` claim, if present.
    public var accessTokenHash: String?

    /// Makes a result; verifiers fill it in.
    /// - Parameters:
    ///   - jwk: the proof's key.
    ///   - thumbprint: its thumbprint.
    ///   - jti: the proof id.
    ///   - method: `htm`.
    ///   - url: canonical `htu`.
    ///   - issuedAt: `iat`.
    ///   - nonce: `nonce`, if any.
    ///   - accessTokenHash: `ath`, if any.
    public init(
        jwk: JWK, thumbprint: String, jti: String, method: String, url: String, issuedAt: Int64, nonce: String?,
        accessTokenHash: String?
    ) {
        self.jwk = jwk
        self.thumbprint = thumbprint
        self.jti = jti
        self.method = method
        self.url = url
        self.issuedAt = issuedAt
        self.nonce = nonce
        self.accessTokenHash = accessTokenHash
    }
}
