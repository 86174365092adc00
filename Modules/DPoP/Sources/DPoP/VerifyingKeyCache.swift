import ShareKitCore
import ShareKitCryptoInterface
import ShareKitDPoPInterface
import Synchronization

/// Keys a verifier has already imported, with their thumbprints.
///
/// A session signs every request with the same key, so the import (point
/// decoding and curve check, about 25 µs) and the thumbprint are done once
/// per key rather than once per request. The cache is bounded: when it is
/// full it is emptied, so hostile input with ever new keys costs memory no
/// more than ``capacity`` entries and time no more than the uncached path.
final class VerifyingKeyCache: Sendable {
    /// One imported key.
    struct Entry: Sendable {
        /// The key, ready to verify.
        let key: any P256VerifyingKey
        /// Its RFC 7638 thumbprint.
        let thumbprint: String
    }

    /// The most keys kept.
    let capacity: Int
    private let entries = Mutex<[JWK: Entry]>([:])

    /// Makes an empty cache.
    /// - Parameter capacity: the most keys kept; 0 disables caching.
    init(capacity: Int) { self.capacity = capacity }

    /// The imported key for a JWK, importing it on first use.
    /// - Parameters:
    ///   - jwk: the key from a proof header.
    ///   - crypto: the provider that imports it.
    /// - Returns: the key and its thumbprint.
    /// - Throws: ``DPoPError/invalidKey(_:)`` when the coordinates are not a
    ///   point on P-256, ``DPoPError/signingFailed(_:)`` when hashing fails.
    func entry(for jwk: JWK, crypto: any CryptoProvider) throws(DPoPError) -> Entry {
        if let hit = entries.withLock({ $0[jwk] }) { return hit }
        guard let x = Base64URL.decode(jwk.x.utf8), let y = Base64URL.decode(jwk.y.utf8),
            let coordinates = try? P256PublicKey(x: x, y: y)
        else { throw .invalidKey("the coordinates are not 32-byte base64url values") }
        let key: any P256VerifyingKey
        do {
            key = try crypto.importP256VerifyingKey(coordinates)
        } catch {
            throw .invalidKey("the coordinates are not a point on P-256")
        }
        let entry = Entry(key: key, thumbprint: try JWKThumbprint.sha256(of: jwk, crypto: crypto))
        guard capacity > 0 else { return entry }
        entries.withLock { cache in
            if cache.count >= capacity { cache.removeAll(keepingCapacity: true) }
            cache[jwk] = entry
        }
        return entry
    }
}
