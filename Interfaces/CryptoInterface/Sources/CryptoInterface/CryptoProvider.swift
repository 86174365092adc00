/// The cryptographic primitives the toolkit needs, from one adapter
/// (OpenSSL's libcrypto on Linux): SHA-256, P-256 ECDSA (ES256) and a
/// cryptographically secure random source.
///
/// Modules receive an `any CryptoProvider` from the composition root and
/// never name the adapter. Implementations are stateless or internally
/// synchronized, so one instance serves every thread.
public protocol CryptoProvider: Sendable {
    /// Hashes a whole message at once.
    /// - Parameter buffer: the message.
    /// - Returns: the 32-byte SHA-256 digest.
    /// - Throws: ``CryptoError/backendFailure(operation:code:)`` when the library fails.
    func sha256(_ buffer: UnsafeRawBufferPointer) throws -> [UInt8]

    /// Starts a streaming SHA-256 computation.
    /// - Returns: a fresh hasher for one stream.
    /// - Throws: ``CryptoError/backendFailure(operation:code:)`` when the library fails.
    func makeSHA256Hasher() throws -> any SHA256Hasher

    /// Makes a new P-256 key pair from the system's CSPRNG.
    /// - Returns: the new private key.
    /// - Throws: ``CryptoError/backendFailure(operation:code:)`` when the library fails.
    func generateP256SigningKey() throws -> any P256SigningKey

    /// Rebuilds a private key from its scalar (as stored in a secret store),
    /// computing its public point.
    /// - Parameter privateScalar: 32 bytes big-endian, as
    ///   ``P256SigningKey/exportPrivateScalar()`` returns them.
    /// - Returns: the private key.
    /// - Throws: ``CryptoError/invalidLength(what:expected:actual:)`` when the
    ///   scalar is not 32 bytes, ``CryptoError/invalidPrivateScalar`` when it is
    ///   zero or not below the group order.
    func importP256SigningKey(privateScalar: [UInt8]) throws -> any P256SigningKey

    /// Imports a public key for verifying signatures.
    /// - Parameter publicKey: the coordinates.
    /// - Returns: a key ready to verify many signatures.
    /// - Throws: ``CryptoError/invalidPublicKey`` when the point is not on the curve.
    func importP256VerifyingKey(_ publicKey: P256PublicKey) throws -> any P256VerifyingKey

    /// Random bytes from the CSPRNG, for ids, nonces and keys.
    /// - Parameter count: how many bytes, from 0 to ``CryptoLimits/maxRandomByteCount``.
    /// - Returns: `count` random bytes.
    /// - Throws: ``CryptoError/invalidArgument(_:)`` for a count out of range,
    ///   ``CryptoError/randomUnavailable`` when the generator fails.
    func randomBytes(count: Int) throws -> [UInt8]

    /// Derives a key from a password with PBKDF2-HMAC-SHA-256 (RFC 8018),
    /// for storing password verifiers (the reference server's users).
    /// - Parameters:
    ///   - password: the password's bytes.
    ///   - salt: a random salt, at least 16 bytes.
    ///   - iterations: the work factor, at least 1.
    ///   - length: how many bytes to derive, 1 to 64.
    /// - Returns: the derived key.
    /// - Throws: ``CryptoError/invalidArgument(_:)`` for arguments out of
    ///   range, ``CryptoError/backendFailure(operation:code:)`` when the library fails.
    func pbkdf2SHA256(password: [UInt8], salt: [UInt8], iterations: Int, length: Int) throws -> [UInt8]
}

extension CryptoProvider {
    /// Hashes the bytes of a collection (an array, a string's `utf8` view).
    /// - Parameter bytes: the message.
    /// - Returns: the 32-byte SHA-256 digest.
    /// - Throws: ``CryptoError/backendFailure(operation:code:)`` when the library fails.
    public func sha256<Bytes: Collection>(contentsOf bytes: Bytes) throws -> [UInt8] where Bytes.Element == UInt8 {
        if let digest = try bytes.withContiguousStorageIfAvailable({ try sha256(UnsafeRawBufferPointer($0)) }) {
            return digest
        }
        return try Array(bytes).withUnsafeBytes { try sha256($0) }
    }

    /// Checks an ES256 signature against a public key given by coordinates,
    /// importing the key for this one check.
    ///
    /// Prefer ``importP256VerifyingKey(_:)`` and keeping the key when one key
    /// signs many messages.
    /// - Parameters:
    ///   - signature: `R || S`, 64 bytes.
    ///   - message: the signed bytes.
    ///   - publicKey: the signer's coordinates.
    /// - Returns: true only when the key is a valid point and the signature is valid.
    public func isValidP256Signature<Bytes: Collection>(
        _ signature: [UInt8], forContentsOf message: Bytes, publicKey: P256PublicKey
    ) -> Bool where Bytes.Element == UInt8 {
        guard let key = try? importP256VerifyingKey(publicKey) else { return false }
        return key.isValidSignature(signature, forContentsOf: message)
    }
}
