import CCrypto
import CryptoInterface

/// A P-256 private key held as a libcrypto `EVP_PKEY`, with a pool of
/// signing contexts so that signing neither parses the key nor prepares a
/// context again.
///
/// The `EVP_PKEY` is never changed after creation; libcrypto allows such a
/// key to be used by several contexts on several threads at once.
final class OpenSSLP256SigningKey: P256SigningKey, @unchecked Sendable {
    let publicKey: P256PublicKey
    private let pkey: OpaquePointer
    private let signers: PKeyContextPool

    /// Wraps a key pair, reading its public coordinates once.
    /// - Parameter pkey: an EC P-256 key pair; ownership passes to the new object.
    /// - Throws: ``CryptoError/backendFailure(operation:code:)`` when its coordinates cannot be read.
    init(takingOwnershipOf pkey: OpaquePointer) throws {
        do {
            publicKey = try P256PublicKey(
                x: Libcrypto.scalarParameter(pkey, OSSL_PKEY_PARAM_EC_PUB_X, secret: false),
                y: Libcrypto.scalarParameter(pkey, OSSL_PKEY_PARAM_EC_PUB_Y, secret: false))
        } catch {
            EVP_PKEY_free(pkey)
            throw error
        }
        self.pkey = pkey
        self.signers = PKeyContextPool(pkey: pkey, forSigning: true)
    }

    deinit { EVP_PKEY_free(pkey) }

    func sign(_ message: UnsafeRawBufferPointer) throws -> [UInt8] {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: CryptoLimits.sha256DigestByteCount) { digest in
            guard let digestBase = digest.baseAddress else { throw Libcrypto.failure("digest buffer") }
            try Libcrypto.shared.sha256(message, into: digestBase)
            return try withUnsafeTemporaryAllocation(
                of: UInt8.self, capacity: ECDSASignatureCoding.maxDERByteCount
            ) { der in
                var length = der.count
                let ok = try signers.withContext { ctx in
                    EVP_PKEY_sign(ctx, der.baseAddress, &length, digestBase, CryptoLimits.sha256DigestByteCount)
                }
                guard ok == 1, length <= der.count else { throw Libcrypto.failure("EVP_PKEY_sign") }
                return try ECDSASignatureCoding.rawSignature(
                    fromDER: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(der)[0..<length]))
            }
        }
    }

    func exportPrivateScalar() throws -> [UInt8] {
        try Libcrypto.scalarParameter(pkey, OSSL_PKEY_PARAM_PRIV_KEY, secret: true)
    }
}
