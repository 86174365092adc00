import ShareKitCore
public import ShareKitCryptoInterface
public import ShareKitDPoPInterface
import Synchronization

/// The `ath` claim (RFC 9449 section 4.2): base64url of SHA-256 over the
/// ASCII bytes of the access token, which ties a proof to one token.
public enum AccessTokenHash {
    /// Computes `ath` for a token.
    /// - Parameters:
    ///   - accessToken: the token as sent in `Authorization: DPoP`.
    ///   - crypto: the SHA-256 provider.
    /// - Returns: 43 characters of base64url.
    /// - Throws: ``ShareKitDPoPInterface/DPoPError/signingFailed(_:)`` when hashing fails.
    public static func of(_ accessToken: String, crypto: any CryptoProvider) throws(DPoPError) -> String {
        do {
            return Base64URL.encode(try crypto.sha256(contentsOf: accessToken.utf8))
        } catch {
            throw .signingFailed("SHA-256 failed: \(error)")
        }
    }
}

/// The `ath` of the access token a signer used last. A token serves every
/// request until it is refreshed, so hashing it once per token instead of
/// once per proof takes a SHA-256 and a base64 encoding off each request.
final class LastAccessTokenHash: Sendable {
    private let last = Mutex<(token: String, ath: String)?>(nil)

    /// ``AccessTokenHash/of(_:crypto:)``, from the cache when the token is the last one's.
    /// - Throws: ``ShareKitDPoPInterface/DPoPError/signingFailed(_:)`` when hashing fails.
    func of(_ accessToken: String, crypto: any CryptoProvider) throws(DPoPError) -> String {
        if let hit = last.withLock({ $0 }), hit.token == accessToken { return hit.ath }
        let ath = try AccessTokenHash.of(accessToken, crypto: crypto)
        last.withLock { $0 = (accessToken, ath) }
        return ath
    }
}
