/// A streaming SHA-256 computation: feed bytes in any number of pieces,
/// then take the digest.
///
/// One hasher belongs to one task at a time (it is not `Sendable`); make
/// one per stream with ``CryptoProvider/makeSHA256Hasher()``. Feeding raw
/// buffers lets callers hash file parts straight from their read buffers
/// without copying them into arrays.
public protocol SHA256Hasher {
    /// Feeds the next bytes of the message.
    ///
    /// Never fails by itself: an internal failure of the library is kept
    /// and reported by ``finalize()``, so loops that feed many pieces stay
    /// simple.
    /// - Parameter buffer: the bytes; may be empty.
    mutating func update(_ buffer: UnsafeRawBufferPointer)

    /// Finishes the message and returns its digest, then starts over with
    /// an empty message so the hasher can be reused.
    /// - Returns: the 32-byte SHA-256 digest of everything fed since the
    ///   hasher was made or last finalized.
    /// - Throws: ``CryptoError/backendFailure(operation:code:)`` when the
    ///   library failed during an update or the finalization.
    mutating func finalize() throws -> [UInt8]
}

extension SHA256Hasher {
    /// Feeds the bytes of a collection (an array, a slice, `Data`, UTF-8 view).
    /// - Parameter bytes: the next bytes of the message.
    public mutating func update<Bytes: Collection>(contentsOf bytes: Bytes) where Bytes.Element == UInt8 {
        let done: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if done == nil {
            Array(bytes).withUnsafeBytes { update($0) }
        }
    }
}
