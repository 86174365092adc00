import CShareKitCrypto
import ShareKitCryptoInterface

/// Converts between libcrypto's DER-encoded ECDSA signatures and the JOSE
/// form `R || S` (RFC 7518 section 3.4), where each half is exactly 32
/// bytes, left-padded with zeros: a DER integer drops leading zeros, so a
/// short R or S (about 1 signature in 128) must be padded back.
enum ECDSASignatureCoding {
    /// The largest DER encoding of a P-256 signature (two 33-byte integers with headers).
    static let maxDERByteCount = 72

    /// Decodes a DER signature into `R || S` by reading the two integers in
    /// place: `SEQUENCE { INTEGER r, INTEGER s }` with short lengths (a P-256
    /// signature is at most 72 bytes), each integer at most 33 bytes (a
    /// leading zero before a high bit). Anything else is refused, so a
    /// library that ever wrote another form is noticed, not misread. (It
    /// replaces `d2i_ECDSA_SIG`, which allocates a signature and two big
    /// numbers for every proof.)
    /// - Parameter der: the DER bytes libcrypto produced.
    /// - Returns: 64 bytes.
    /// - Throws: ``CryptoError/backendFailure(operation:code:)`` when the DER is not of that form.
    static func rawSignature(fromDER der: UnsafeRawBufferPointer) throws -> [UInt8] {
        let half = CryptoLimits.p256ScalarByteCount
        var out = [UInt8](repeating: 0, count: 2 * half)
        guard der.count >= 8, der.count <= maxDERByteCount, der[0] == 0x30, Int(der[1]) == der.count - 2 else {
            throw CryptoError.backendFailure(operation: "ECDSA signature DER", code: 0)
        }
        var index = 2
        for part in 0..<2 {
            guard index + 2 <= der.count, der[index] == 0x02 else {
                throw CryptoError.backendFailure(operation: "ECDSA signature DER", code: 0)
            }
            let length = Int(der[index + 1])
            var start = index + 2
            let end = start + length
            guard length >= 1, length <= half + 1, end <= der.count, der[start] & 0x80 == 0 else {
                throw CryptoError.backendFailure(operation: "ECDSA signature DER", code: 0)
            }
            while start < end, der[start] == 0 { start += 1 }
            guard end - start <= half else {
                throw CryptoError.backendFailure(operation: "ECDSA signature DER", code: 0)
            }
            let offset = part * half + half - (end - start)
            for (position, byteIndex) in (start..<end).enumerated() { out[offset + position] = der[byteIndex] }
            index = end
        }
        guard index == der.count else { throw CryptoError.backendFailure(operation: "ECDSA signature DER", code: 0) }
        return out
    }

    /// Encodes `R || S` as DER for libcrypto's verifier.
    /// - Parameters:
    ///   - raw: 64 bytes.
    ///   - body: gets the DER bytes.
    /// - Returns: what `body` returns, or nil when `raw` has the wrong length
    ///   or cannot be encoded (callers treat that as an invalid signature).
    static func withDER<T>(fromRaw raw: [UInt8], _ body: (UnsafeRawBufferPointer) -> T) -> T? {
        let half = CryptoLimits.p256ScalarByteCount
        guard raw.count == 2 * half, let sig = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(sig) }
        let (r, s) = raw.withUnsafeBufferPointer { p -> (OpaquePointer?, OpaquePointer?) in
            (BN_bin2bn(p.baseAddress, Int32(half), nil), BN_bin2bn(p.baseAddress.map { $0 + half }, Int32(half), nil))
        }
        guard let r, let s else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        // ECDSA_SIG_set0 takes ownership of both numbers on success.
        guard ECDSA_SIG_set0(sig, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        var der = [UInt8](repeating: 0, count: maxDERByteCount + 8)
        let length = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_ECDSA_SIG(sig, &cursor)
        }
        guard length > 0, Int(length) <= der.count else { return nil }
        return der.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[0..<Int(length)])) }
    }
}
