import CShareKitCrypto
public import ShareKitCryptoInterface

/// ``ShareKitCryptoInterface/CryptoProvider`` over OpenSSL 3's libcrypto: SHA-256
/// through `EVP_MD_CTX`, P-256 ECDSA through `EVP_PKEY`, random bytes through
/// `RAND_bytes` (seeded from the operating system).
///
/// Stateless: every instance shares libcrypto's process-wide objects, so
/// make one in the composition root and pass it around as `any CryptoProvider`.
///
/// libcrypto is loaded on the first operation; when it cannot be, every
/// operation throws ``ShareKitCryptoInterface/CryptoError/libraryUnavailable(_:)``
/// naming the Debian package to install.
public struct OpenSSLCryptoProvider: CryptoProvider {
    /// Makes the provider.
    public init() {}

    /// Hashes a whole message; see ``ShareKitCryptoInterface/CryptoProvider/sha256(_:)``.
    /// - Parameter buffer: the message.
    /// - Returns: the 32-byte digest.
    /// - Throws: ``ShareKitCryptoInterface/CryptoError/backendFailure(operation:code:)`` when libcrypto fails.
    public func sha256(_ buffer: UnsafeRawBufferPointer) throws -> [UInt8] {
        try Libcrypto.requireLoaded()
        var digest = [UInt8](repeating: 0, count: CryptoLimits.sha256DigestByteCount)
        try digest.withUnsafeMutableBufferPointer { out in
            guard let base = out.baseAddress else { throw Libcrypto.failure("digest buffer") }
            try Libcrypto.shared.sha256(buffer, into: base)
        }
        return digest
    }

    /// Starts a streaming SHA-256.
    /// - Returns: a new hasher.
    /// - Throws: ``ShareKitCryptoInterface/CryptoError/backendFailure(operation:code:)`` when libcrypto fails.
    public func makeSHA256Hasher() throws -> any SHA256Hasher {
        try Libcrypto.requireLoaded()
        return try OpenSSLSHA256Hasher()
    }

    /// Generates a P-256 key pair (`EVP_PKEY_generate` with group P-256).
    /// - Returns: the new private key.
    /// - Throws: ``ShareKitCryptoInterface/CryptoError/backendFailure(operation:code:)`` when libcrypto fails.
    public func generateP256SigningKey() throws -> any P256SigningKey {
        try Libcrypto.requireLoaded()
        guard let ctx = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
            throw Libcrypto.failure("EVP_PKEY_CTX_new_from_name(EC)")
        }
        defer { EVP_PKEY_CTX_free(ctx) }
        guard EVP_PKEY_keygen_init(ctx) == 1 else { throw Libcrypto.failure("EVP_PKEY_keygen_init") }
        guard EVP_PKEY_CTX_set_group_name(ctx, ccrypto_group_p256()) == 1 else {
            throw Libcrypto.failure("EVP_PKEY_CTX_set_group_name")
        }
        var pkey: OpaquePointer? = nil
        guard EVP_PKEY_generate(ctx, &pkey) == 1, let key = pkey else { throw Libcrypto.failure("EVP_PKEY_generate") }
        return try OpenSSLP256SigningKey(takingOwnershipOf: key)
    }

    /// Rebuilds a private key from its scalar and computes the public point
    /// (`EC_POINT_mul` with the group generator).
    /// - Parameter privateScalar: 32 bytes big-endian.
    /// - Returns: the private key.
    /// - Throws: ``ShareKitCryptoInterface/CryptoError/invalidLength(what:expected:actual:)``
    ///   for a wrong length, ``ShareKitCryptoInterface/CryptoError/invalidPrivateScalar``
    ///   for zero or a value not below the group order.
    public func importP256SigningKey(privateScalar: [UInt8]) throws -> any P256SigningKey {
        try Libcrypto.requireLoaded()
        guard privateScalar.count == CryptoLimits.p256ScalarByteCount else {
            throw CryptoError.invalidLength(
                what: "P-256 private scalar", expected: CryptoLimits.p256ScalarByteCount, actual: privateScalar.count)
        }
        guard Libcrypto.isValidP256Scalar(privateScalar) else { throw CryptoError.invalidPrivateScalar }
        let group = try Libcrypto.shared.requireP256Group()
        // A secure BIGNUM is cleared on release and marks the scalar as
        // secret for the parameter builder below.
        guard let scalar = BN_secure_new() else { throw Libcrypto.failure("BN_secure_new") }
        defer { BN_clear_free(scalar) }
        guard privateScalar.withUnsafeBufferPointer({ BN_bin2bn($0.baseAddress, Int32($0.count), scalar) }) != nil
        else { throw Libcrypto.failure("BN_bin2bn") }
        guard let bnContext = BN_CTX_new() else { throw Libcrypto.failure("BN_CTX_new") }
        defer { BN_CTX_free(bnContext) }
        guard let point = EC_POINT_new(group) else { throw Libcrypto.failure("EC_POINT_new") }
        defer { EC_POINT_free(point) }
        guard EC_POINT_mul(group, point, scalar, nil, nil, bnContext) == 1 else {
            throw Libcrypto.failure("EC_POINT_mul")
        }
        var encodedPoint = [UInt8](repeating: 0, count: 1 + 2 * CryptoLimits.p256ScalarByteCount)
        let written = encodedPoint.withUnsafeMutableBufferPointer {
            EC_POINT_point2oct(group, point, POINT_CONVERSION_UNCOMPRESSED, $0.baseAddress, $0.count, bnContext)
        }
        guard written == encodedPoint.count else { throw Libcrypto.failure("EC_POINT_point2oct") }
        let pkey = try Libcrypto.makeECKey(publicPoint: encodedPoint, privateScalar: scalar)
        return try OpenSSLP256SigningKey(takingOwnershipOf: pkey)
    }

    /// Imports a public key for verification.
    /// - Parameter publicKey: the coordinates.
    /// - Returns: a key that verifies many signatures without re-importing.
    /// - Throws: ``ShareKitCryptoInterface/CryptoError/invalidPublicKey`` when the point is not on the curve.
    public func importP256VerifyingKey(_ publicKey: P256PublicKey) throws -> any P256VerifyingKey {
        try Libcrypto.requireLoaded()
        return try OpenSSLP256VerifyingKey(publicKey)
    }

    /// Random bytes from `RAND_bytes`.
    /// - Parameter count: 0 through ``ShareKitCryptoInterface/CryptoLimits/maxRandomByteCount``.
    /// - Returns: the bytes.
    /// - Throws: ``ShareKitCryptoInterface/CryptoError/invalidArgument(_:)`` for a count
    ///   out of range, ``ShareKitCryptoInterface/CryptoError/randomUnavailable`` when the generator fails.
    public func pbkdf2SHA256(password: [UInt8], salt: [UInt8], iterations: Int, length: Int) throws -> [UInt8] {
        try Libcrypto.requireLoaded()
        guard salt.count >= 16, iterations >= 1, iterations <= Int(Int32.max), (1...64).contains(length),
            password.count <= Int(Int32.max)
        else {
            throw CryptoError.invalidArgument(
                "PBKDF2 needs a salt of at least 16 bytes, at least 1 iteration and a length of 1 to 64 bytes")
        }
        var out = [UInt8](repeating: 0, count: length)
        let ok = password.withUnsafeBufferPointer { pw in
            salt.withUnsafeBufferPointer { st in
                out.withUnsafeMutableBufferPointer { o in
                    pw.withMemoryRebound(to: CChar.self) { pwc in
                        PKCS5_PBKDF2_HMAC(
                            pwc.baseAddress, Int32(pw.count), st.baseAddress, Int32(st.count), Int32(iterations),
                            EVP_sha256(), Int32(length), o.baseAddress)
                    }
                }
            }
        }
        guard ok == 1 else {
            let code = ERR_get_error()
            ERR_clear_error()
            throw CryptoError.backendFailure(operation: "PKCS5_PBKDF2_HMAC", code: code)
        }
        return out
    }

    public func randomBytes(count: Int) throws -> [UInt8] {
        try Libcrypto.requireLoaded()
        guard count >= 0, count <= CryptoLimits.maxRandomByteCount else {
            throw CryptoError.invalidArgument(
                "random byte count must be between 0 and \(CryptoLimits.maxRandomByteCount), got \(count)")
        }
        var out = [UInt8](repeating: 0, count: count)
        guard count > 0 else { return out }
        let ok = out.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32($0.count)) }
        guard ok == 1 else {
            ERR_clear_error()
            throw CryptoError.randomUnavailable
        }
        return out
    }
}
