public import CryptoInterface
public import DPoPInterface
import ShareCore

/// The `ath` claim (RFC 9449 section 4.2): base64url of SHA-256 over the
/// ASCII bytes of the access token, which ties a proof to one token.
public enum AccessTokenHash {
    /// Computes `ath` for a token.
    /// - Parameters:
    ///   - accessToken: the token as sent in `Authorization: DPoP`.
    ///   - crypto: the SHA-256 provider.
    /// - Returns: 43 characters of base64url.
    /// - Throws: ``DPoPInterface/DPoPError/signingFailed(_:)`` when hashing fails.
    public static func of(_ accessToken: String, crypto: any CryptoProvider) throws(DPoPError) -> String {
        do {
            return Base64URL.encode(try crypto.sha256(contentsOf: accessToken.utf8))
        } catch {
            throw .signingFailed("SHA-256 failed: \(error)")
        }
    }
}
