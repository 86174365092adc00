/// Fixed sizes of the primitives, so callers validate lengths against names
/// rather than bare numbers.
public enum CryptoLimits {
    /// Bytes in a SHA-256 digest.
    public static let sha256DigestByteCount = 32
    /// Bytes in one P-256 field element or scalar (a coordinate, the private scalar, R or S).
    public static let p256ScalarByteCount = 32
    /// Bytes in an ES256 signature: R then S, each left-padded to 32 bytes (RFC 7518 section 3.4).
    public static let es256SignatureByteCount = 64
    /// The most random bytes ``CryptoProvider/randomBytes(count:)`` hands out in one call.
    public static let maxRandomByteCount = 1 << 20
}
