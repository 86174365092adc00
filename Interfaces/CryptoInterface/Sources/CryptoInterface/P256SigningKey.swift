/// A P-256 private key that makes ES256 signatures (ECDSA over SHA-256,
/// RFC 7518 section 3.4).
///
/// Implementations keep the key in the form their library signs with, so
/// signing does not parse the key again; they are safe to use from many
/// threads at once.
public protocol P256SigningKey: Sendable {
    /// The matching public key.
    var publicKey: P256PublicKey { get }

    /// Signs a message: hashes it with SHA-256 and signs the digest.
    /// - Parameter message: the bytes to sign (for JWS, the ASCII signing input).
    /// - Returns: the 64-byte signature `R || S`, each half left-padded to 32 bytes.
    /// - Throws: ``CryptoError/backendFailure(operation:code:)`` when the library fails.
    func sign(_ message: UnsafeRawBufferPointer) throws -> [UInt8]

    /// The private scalar, for storing the key in a secret store and
    /// importing it again with ``CryptoProvider/importP256SigningKey(privateScalar:)``.
    ///
    /// Handle the result as a secret: wrap it at once (for example in a
    /// keychain `SecretValue`) and never log or print it.
    /// - Returns: the scalar, 32 bytes big-endian, left-padded.
    /// - Throws: ``CryptoError/backendFailure(operation:code:)`` when the library fails.
    func exportPrivateScalar() throws -> [UInt8]
}

extension P256SigningKey {
    /// Signs the bytes of a collection; see ``sign(_:)``.
    /// - Parameter message: the bytes to sign.
    /// - Returns: the 64-byte signature `R || S`.
    /// - Throws: ``CryptoError/backendFailure(operation:code:)`` when the library fails.
    public func sign<Bytes: Collection>(contentsOf message: Bytes) throws -> [UInt8] where Bytes.Element == UInt8 {
        if let result = try message.withContiguousStorageIfAvailable({ try sign(UnsafeRawBufferPointer($0)) }) {
            return result
        }
        return try Array(message).withUnsafeBytes { try sign($0) }
    }
}
