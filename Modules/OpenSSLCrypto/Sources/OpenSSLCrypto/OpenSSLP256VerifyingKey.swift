import CShareKitCrypto
import ShareKitCryptoInterface

/// A P-256 public key held as a libcrypto `EVP_PKEY`, with a pool of
/// verifying contexts (see ``PKeyContextPool``).
final class OpenSSLP256VerifyingKey: P256VerifyingKey, @unchecked Sendable {
    let publicKey: P256PublicKey
    private let pkey: OpaquePointer
    private let verifiers: PKeyContextPool

    /// Imports the coordinates; libcrypto rejects a point that is not on the curve.
    /// - Parameter publicKey: the coordinates.
    /// - Throws: ``CryptoError/invalidPublicKey`` when the point is not on P-256.
    init(_ publicKey: P256PublicKey) throws {
        let pkey: OpaquePointer
        do {
            pkey = try Libcrypto.makeECKey(publicPoint: publicKey.uncompressedRepresentation, privateScalar: nil)
        } catch {
            throw CryptoError.invalidPublicKey
        }
        // Decoding the point already refuses one that is off the curve; the
        // quick check (on the curve, not the point at infinity, coordinates in
        // range) keeps that guarantee explicit and independent of the decoder.
        // The full check would add a scalar multiplication by the group order,
        // which P-256 (cofactor 1) does not need.
        guard let check = EVP_PKEY_CTX_new_from_pkey(nil, pkey, nil) else {
            EVP_PKEY_free(pkey)
            throw Libcrypto.failure("EVP_PKEY_CTX_new_from_pkey")
        }
        let valid = EVP_PKEY_public_check_quick(check) == 1
        EVP_PKEY_CTX_free(check)
        guard valid else {
            ERR_clear_error()
            EVP_PKEY_free(pkey)
            throw CryptoError.invalidPublicKey
        }
        self.publicKey = publicKey
        self.pkey = pkey
        self.verifiers = PKeyContextPool(pkey: pkey, forSigning: false)
    }

    deinit { EVP_PKEY_free(pkey) }

    func isValidSignature(_ signature: [UInt8], for message: UnsafeRawBufferPointer) -> Bool {
        guard signature.count == CryptoLimits.es256SignatureByteCount else { return false }
        var digest = [UInt8](repeating: 0, count: CryptoLimits.sha256DigestByteCount)
        do {
            try digest.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { throw CryptoError.invalidPublicKey }
                try Libcrypto.shared.sha256(message, into: base)
            }
        } catch {
            return false
        }
        let verdict = ECDSASignatureCoding.withDER(fromRaw: signature) { der -> Int32 in
            (try? verifiers.withContext { ctx in
                EVP_PKEY_verify(ctx, der.baseAddress, der.count, digest, digest.count)
            }) ?? 0
        }
        // A wrong signature leaves a reason on the thread's error queue; it is
        // an answer, not a failure, so the queue is emptied for later callers.
        if verdict != 1 { ERR_clear_error() }
        return verdict == 1
    }
}
