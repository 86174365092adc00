/// A P-256 public key imported for checking ES256 signatures.
///
/// Import once and keep it when the same key signs many messages (a
/// session's DPoP key): the import checks the point, verification then
/// only does the signature arithmetic. Safe to use from many threads.
public protocol P256VerifyingKey: Sendable {
    /// The key's coordinates.
    var publicKey: P256PublicKey { get }

    /// Checks an ES256 signature.
    /// - Parameters:
    ///   - signature: `R || S`, 64 bytes; any other length is simply invalid.
    ///   - message: the signed bytes (the whole message, not its digest).
    /// - Returns: true only when the signature is valid for this key and
    ///   message; false for every malformed or wrong signature.
    func isValidSignature(_ signature: [UInt8], for message: UnsafeRawBufferPointer) -> Bool
}

extension P256VerifyingKey {
    /// Checks an ES256 signature over the bytes of a collection.
    /// - Parameters:
    ///   - signature: `R || S`, 64 bytes.
    ///   - message: the signed bytes.
    /// - Returns: whether the signature is valid.
    public func isValidSignature<Bytes: Collection>(_ signature: [UInt8], forContentsOf message: Bytes) -> Bool
    where Bytes.Element == UInt8 {
        if let result = message.withContiguousStorageIfAvailable({
            isValidSignature(signature, for: UnsafeRawBufferPointer($0))
        }) {
            return result
        }
        return Array(message).withUnsafeBytes { isValidSignature(signature, for: $0) }
    }
}
