import CShareKitCrypto
import ShareKitCryptoInterface
import Synchronization

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
    /// A digest context kept for the next signature (`EVP_MD_CTX *` bits):
    /// `EVP_Digest` would make and free one per call.
    private let idleDigest = Mutex<UInt?>(nil)

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

    deinit {
        if let bits = idleDigest.withLock({ $0 }) { EVP_MD_CTX_free(OpaquePointer(bitPattern: bits)) }
        EVP_PKEY_free(pkey)
    }

    func sign(_ message: UnsafeRawBufferPointer) throws -> [UInt8] {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: CryptoLimits.sha256DigestByteCount) { digest in
            guard let digestBase = digest.baseAddress else { throw Libcrypto.failure("digest buffer") }
            try sha256(message, into: digestBase)
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

    /// SHA-256 of a message through the kept digest context (a new one when
    /// another thread is using it).
    private func sha256(_ message: UnsafeRawBufferPointer, into digest: UnsafeMutablePointer<UInt8>) throws {
        let md = try Libcrypto.shared.requireSHA256()
        let kept = idleDigest.withLock { bits -> OpaquePointer? in
            defer { bits = nil }
            return bits.flatMap { OpaquePointer(bitPattern: $0) }
        }
        guard let ctx = kept ?? EVP_MD_CTX_new() else { throw Libcrypto.failure("EVP_MD_CTX_new") }
        var length: UInt32 = 0
        let ok = withUnsafePointer(to: 0 as UInt8) { empty in
            EVP_DigestInit_ex2(ctx, md, nil) == 1
                && EVP_DigestUpdate(
                    ctx, message.baseAddress.map { UnsafeRawPointer($0) } ?? UnsafeRawPointer(empty), message.count)
                    == 1
                && EVP_DigestFinal_ex(ctx, digest, &length) == 1
        }
        let stored = idleDigest.withLock { bits -> Bool in
            guard bits == nil else { return false }
            bits = UInt(bitPattern: ctx)
            return true
        }
        if !stored { EVP_MD_CTX_free(ctx) }
        guard ok, Int(length) == CryptoLimits.sha256DigestByteCount else { throw Libcrypto.failure("EVP_Digest") }
    }

    func exportPrivateScalar() throws -> [UInt8] {
        try Libcrypto.scalarParameter(pkey, OSSL_PKEY_PARAM_PRIV_KEY, secret: true)
    }
}
