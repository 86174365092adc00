import CShareKitCrypto
import CShareKitCryptoLoader
import ShareKitCryptoInterface

/// Shared, read-only libcrypto objects and small helpers of the adapter.
///
/// Fetching an algorithm (`EVP_MD_fetch`) or building a curve group walks
/// provider tables and allocates; doing it once and sharing the results
/// keeps that work off the hashing and signing paths. Fetched `EVP_MD`
/// objects and `EC_GROUP` objects are safe to share between threads for
/// read-only use, which is all this adapter does with them.
final class Libcrypto: @unchecked Sendable {
    /// The process-wide instance.
    static let shared = Libcrypto()

    /// The fetched SHA-256 implementation (`EVP_MD *`), nil when the
    /// default provider could not be loaded.
    let sha256: OpaquePointer?
    /// The P-256 group (`EC_GROUP *`), used to compute a public point from an imported scalar.
    let p256Group: OpaquePointer?

    /// The order n of the P-256 group, big-endian; a private scalar must lie in [1, n-1].
    static let p256Order: [UInt8] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
    ]

    private init() {
        sha256 = EVP_MD_fetch(nil, "SHA256", nil)
        p256Group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1)
    }

    /// Why libcrypto cannot be loaded, nil when it is open: asked before the first libcrypto call of every
    /// operation, so that a host without libcrypto gets an error it can handle instead of the wrappers' exit
    /// with status 127 (a library never ends its host).
    static let loadFailure: String? = {
        var message = [CChar](repeating: 0, count: 512)
        guard sk_crypto_library_load(&message, message.count) != 0 else { return nil }
        return String(decoding: message.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// Throws when libcrypto cannot be loaded.
    /// - Throws: ``CryptoError/libraryUnavailable(_:)`` with the loader's message, which names the Debian
    ///   package to install.
    static func requireLoaded() throws {
        if let loadFailure { throw CryptoError.libraryUnavailable(loadFailure) }
    }

    /// The fetched SHA-256, or an error naming the failed fetch.
    /// - Returns: the `EVP_MD *`.
    /// - Throws: ``CryptoError/backendFailure(operation:code:)`` when it could not be fetched.
    func requireSHA256() throws -> OpaquePointer {
        guard let md = sha256 else { throw Libcrypto.failure("EVP_MD_fetch(SHA256)") }
        return md
    }

    /// The P-256 group, or an error.
    /// - Returns: the `EC_GROUP *`.
    /// - Throws: ``CryptoError/backendFailure(operation:code:)`` when it could not be built.
    func requireP256Group() throws -> OpaquePointer {
        guard let group = p256Group else { throw Libcrypto.failure("EC_GROUP_new_by_curve_name") }
        return group
    }

    /// Hashes a message with SHA-256 in one call into a caller-owned buffer.
    /// - Parameters:
    ///   - message: the bytes; may be empty.
    ///   - digest: receives 32 bytes.
    /// - Throws: ``CryptoError/backendFailure(operation:code:)`` when libcrypto fails.
    func sha256(_ message: UnsafeRawBufferPointer, into digest: UnsafeMutablePointer<UInt8>) throws {
        let md = try requireSHA256()
        var length: UInt32 = 0
        // An empty buffer may have no base address; libcrypto needs a valid pointer even for 0 bytes.
        let ok = withUnsafePointer(to: 0 as UInt8) { empty in
            EVP_Digest(message.baseAddress ?? UnsafeRawPointer(empty), message.count, digest, &length, md, nil)
        }
        guard ok == 1, Int(length) == CryptoLimits.sha256DigestByteCount else { throw Libcrypto.failure("EVP_Digest") }
    }

    /// Makes the error for a failed library call from the thread's libcrypto
    /// error queue, and empties the queue so the next failure is reported
    /// on its own. The code identifies the reason; it never holds data.
    /// - Parameter operation: the call that failed.
    /// - Returns: the error to throw.
    static func failure(_ operation: String) -> CryptoError {
        let code = ERR_get_error()
        ERR_clear_error()
        return .backendFailure(operation: operation, code: UInt(code))
    }

    /// Writes a big number into exactly `count` bytes, left-padded with zeros.
    /// - Parameters:
    ///   - bn: the `BIGNUM *`.
    ///   - count: the width.
    ///   - operation: names the value in an error.
    /// - Returns: the bytes.
    /// - Throws: ``CryptoError/backendFailure(operation:code:)`` when the number does not fit.
    static func bytes(of bn: OpaquePointer, count: Int, operation: String) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        let written = out.withUnsafeMutableBufferPointer { BN_bn2binpad(bn, $0.baseAddress, Int32(count)) }
        guard written == Int32(count) else { throw failure(operation) }
        return out
    }

    /// Reads a big-number parameter of a key (a coordinate, the private scalar) as 32 bytes.
    /// - Parameters:
    ///   - pkey: the `EVP_PKEY *`.
    ///   - name: the OSSL parameter name (`qx`, `qy`, `priv`).
    ///   - secret: clear the number's memory when done (for the private scalar).
    /// - Returns: 32 bytes big-endian.
    /// - Throws: ``CryptoError/backendFailure(operation:code:)`` when the parameter is missing.
    static func scalarParameter(_ pkey: OpaquePointer, _ name: String, secret: Bool) throws -> [UInt8] {
        var bn: OpaquePointer? = nil
        guard EVP_PKEY_get_bn_param(pkey, name, &bn) == 1, let number = bn else {
            throw failure("EVP_PKEY_get_bn_param(\(name))")
        }
        defer {
            if secret { BN_clear_free(number) } else { BN_free(number) }
        }
        return try bytes(of: number, count: CryptoLimits.p256ScalarByteCount, operation: "BN_bn2binpad(\(name))")
    }

    /// Whether a 32-byte big-endian scalar lies in [1, n-1] for the P-256 order n.
    /// - Parameter scalar: the candidate private scalar.
    /// - Returns: true for a usable private key.
    static func isValidP256Scalar(_ scalar: [UInt8]) -> Bool {
        guard scalar.count == p256Order.count else { return false }
        guard scalar.contains(where: { $0 != 0 }) else { return false }
        return scalar.lexicographicallyPrecedes(p256Order)
    }

    /// Builds an EC `EVP_PKEY` on P-256 from its public point and, for a key
    /// pair, its private scalar.
    /// - Parameters:
    ///   - publicPoint: the SEC 1 uncompressed point, 65 bytes.
    ///   - privateScalar: the scalar as a (secure) `BIGNUM *`, or nil for a public key.
    /// - Returns: the new key, owned by the caller.
    /// - Throws: ``CryptoError/backendFailure(operation:code:)`` when a step
    ///   fails, for example when the point is not on the curve.
    static func makeECKey(publicPoint: [UInt8], privateScalar: OpaquePointer?) throws -> OpaquePointer {
        guard let builder = OSSL_PARAM_BLD_new() else { throw failure("OSSL_PARAM_BLD_new") }
        defer { OSSL_PARAM_BLD_free(builder) }
        // The builder references the point's bytes until OSSL_PARAM_BLD_to_param
        // copies them, so everything up to the copy happens inside this closure.
        let params = try publicPoint.withUnsafeBytes { point -> UnsafeMutablePointer<OSSL_PARAM> in
            guard OSSL_PARAM_BLD_push_utf8_string(builder, ccrypto_param_group_name(), ccrypto_group_p256(), 0) == 1,
                OSSL_PARAM_BLD_push_octet_string(builder, ccrypto_param_pub_key(), point.baseAddress, point.count) == 1
            else { throw failure("OSSL_PARAM_BLD_push") }
            if let privateScalar {
                guard OSSL_PARAM_BLD_push_BN(builder, ccrypto_param_priv_key(), privateScalar) == 1 else {
                    throw failure("OSSL_PARAM_BLD_push_BN")
                }
            }
            guard let params = OSSL_PARAM_BLD_to_param(builder) else { throw failure("OSSL_PARAM_BLD_to_param") }
            return params
        }
        // A private scalar pushed as a secure BIGNUM lands in the parameters'
        // secure block, which OSSL_PARAM_free clears before releasing.
        defer { OSSL_PARAM_free(params) }
        guard let ctx = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
            throw failure("EVP_PKEY_CTX_new_from_name(EC)")
        }
        defer { EVP_PKEY_CTX_free(ctx) }
        guard EVP_PKEY_fromdata_init(ctx) == 1 else { throw failure("EVP_PKEY_fromdata_init") }
        let selection = privateScalar == nil ? ccrypto_selection_public_key() : ccrypto_selection_keypair()
        var pkey: OpaquePointer? = nil
        guard EVP_PKEY_fromdata(ctx, &pkey, selection, params) == 1, let key = pkey else {
            throw failure("EVP_PKEY_fromdata")
        }
        return key
    }
}
