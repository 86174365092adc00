import CCrypto
import CryptoInterface

/// Converts between libcrypto's DER-encoded ECDSA signatures and the JOSE
/// form `R || S` (RFC 7518 section 3.4), where each half is exactly 32
/// bytes, left-padded with zeros: a DER integer drops leading zeros, so a
/// short R or S (about 1 signature in 128) must be padded back.
enum ECDSASignatureCoding {
    /// The largest DER encoding of a P-256 signature (two 33-byte integers with headers).
    static let maxDERByteCount = 72

    /// Decodes a DER signature into `R || S`.
    /// - Parameter der: the DER bytes libcrypto produced.
    /// - Returns: 64 bytes.
    /// - Throws: ``CryptoError/backendFailure(operation:code:)`` when the DER cannot be decoded.
    static func rawSignature(fromDER der: UnsafeRawBufferPointer) throws -> [UInt8] {
        guard let base = der.baseAddress else { throw Libcrypto.failure("d2i_ECDSA_SIG") }
        var cursor: UnsafePointer<UInt8>? = base.assumingMemoryBound(to: UInt8.self)
        guard let sig = d2i_ECDSA_SIG(nil, &cursor, der.count) else { throw Libcrypto.failure("d2i_ECDSA_SIG") }
        defer { ECDSA_SIG_free(sig) }
        guard let r = ECDSA_SIG_get0_r(sig), let s = ECDSA_SIG_get0_s(sig) else {
            throw Libcrypto.failure("ECDSA_SIG_get0")
        }
        let half = CryptoLimits.p256ScalarByteCount
        var out = [UInt8](repeating: 0, count: 2 * half)
        let ok = out.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let p = buffer.baseAddress else { return false }
            return BN_bn2binpad(r, p, Int32(half)) == Int32(half)
                && BN_bn2binpad(s, p + half, Int32(half)) == Int32(half)
        }
        guard ok else { throw Libcrypto.failure("BN_bn2binpad(signature)") }
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
