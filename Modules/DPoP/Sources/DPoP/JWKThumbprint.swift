import ShareKitCore
public import ShareKitCryptoInterface
public import ShareKitDPoPInterface

/// The JWK SHA-256 thumbprint (RFC 7638) of a DPoP key: what a server
/// stores as `cnf.jkt` to bind a session to the key.
public enum JWKThumbprint {
    /// Computes the thumbprint: base64url of SHA-256 over the JWK's required
    /// members in lexicographic order without whitespace,
    /// `{"crv":"P-256","kty":"EC","x":"…","y":"…"}`, with both coordinates
    /// at their full 32 bytes (a coordinate with a leading zero byte keeps it).
    /// - Parameters:
    ///   - jwk: the public key.
    ///   - crypto: the SHA-256 provider.
    /// - Returns: 43 characters of base64url.
    /// - Throws: ``ShareKitDPoPInterface/DPoPError/signingFailed(_:)`` when hashing fails.
    public static func sha256(of jwk: JWK, crypto: any CryptoProvider) throws(DPoPError) -> String {
        do {
            let digest = try crypto.sha256(contentsOf: jwk.canonicalJSON.utf8)
            return Base64URL.encode(digest)
        } catch {
            throw .signingFailed("SHA-256 failed: \(error)")
        }
    }
}
