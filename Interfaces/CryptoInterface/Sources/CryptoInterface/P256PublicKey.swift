/// A P-256 public key as its affine coordinates, each exactly 32 bytes,
/// big-endian and left-padded with zeros (the form JWK `x` and `y` use).
///
/// The value only checks lengths; whether the point lies on the curve is
/// checked when it is imported with ``CryptoProvider/importP256VerifyingKey(_:)``.
public struct P256PublicKey: Hashable, Sendable, CustomStringConvertible {
    /// The x coordinate, 32 bytes.
    public let x: [UInt8]
    /// The y coordinate, 32 bytes.
    public let y: [UInt8]

    /// Wraps two coordinates.
    /// - Parameters:
    ///   - x: the x coordinate, 32 bytes big-endian.
    ///   - y: the y coordinate, 32 bytes big-endian.
    /// - Throws: ``CryptoError/invalidLength(what:expected:actual:)`` when a
    ///   coordinate is not 32 bytes long.
    public init(x: [UInt8], y: [UInt8]) throws {
        guard x.count == CryptoLimits.p256ScalarByteCount else {
            throw CryptoError.invalidLength(
                what: "P-256 x coordinate", expected: CryptoLimits.p256ScalarByteCount, actual: x.count)
        }
        guard y.count == CryptoLimits.p256ScalarByteCount else {
            throw CryptoError.invalidLength(
                what: "P-256 y coordinate", expected: CryptoLimits.p256ScalarByteCount, actual: y.count)
        }
        self.x = x
        self.y = y
    }

    /// The SEC 1 uncompressed encoding `04 || x || y` (65 bytes).
    public var uncompressedRepresentation: [UInt8] { [0x04] + x + y }

    /// The coordinates in hexadecimal; a public key is not secret.
    public var description: String {
        "P256PublicKey(x: \(Self.hex(x)), y: \(Self.hex(y)))"
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
