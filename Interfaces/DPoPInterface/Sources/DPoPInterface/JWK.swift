import ShareKitCore

/// The public JSON Web Key of a DPoP key (RFC 7517, RFC 7518 section 6.2):
/// an elliptic-curve key on P-256, `{"kty":"EC","crv":"P-256","x":…,"y":…}`.
///
/// Only public members exist here, so a value of this type can never carry
/// a private key. `x` and `y` are the unpadded base64url encodings of the
/// coordinates, each exactly 32 bytes (43 characters): a coordinate with
/// leading zero bytes keeps them, which is what makes the thumbprint
/// (RFC 7638) agree with other implementations.
public struct JWK: Hashable, Sendable, CustomStringConvertible {
    /// The key type, always `EC`.
    public static let keyType = "EC"
    /// The curve, always `P-256`.
    public static let curve = "P-256"
    /// Characters in the base64url form of a 32-byte coordinate.
    public static let coordinateLength = 43

    /// The x coordinate, base64url without padding.
    public let x: String
    /// The y coordinate, base64url without padding.
    public let y: String

    /// The key type member, `EC`.
    public var kty: String { Self.keyType }
    /// The curve member, `P-256`.
    public var crv: String { Self.curve }

    /// Wraps coordinates given in their JWK (base64url) form.
    /// - Parameters:
    ///   - x: the `x` member.
    ///   - y: the `y` member.
    /// - Throws: ``DPoPError/invalidKey(_:)`` when a member is not the
    ///   canonical unpadded base64url form of exactly 32 bytes.
    public init(x: String, y: String) throws(DPoPError) {
        guard Self.isCanonicalCoordinate(x) else { throw .invalidKey("x is not the base64url form of 32 bytes") }
        guard Self.isCanonicalCoordinate(y) else { throw .invalidKey("y is not the base64url form of 32 bytes") }
        self.x = x
        self.y = y
    }

    /// Makes the JWK of raw coordinates.
    /// - Parameters:
    ///   - xCoordinate: 32 bytes big-endian.
    ///   - yCoordinate: 32 bytes big-endian.
    /// - Throws: ``DPoPError/invalidKey(_:)`` when a coordinate is not 32 bytes.
    public init(xCoordinate: [UInt8], yCoordinate: [UInt8]) throws(DPoPError) {
        guard xCoordinate.count == 32, yCoordinate.count == 32 else {
            throw .invalidKey("P-256 coordinates must be 32 bytes each")
        }
        try self.init(x: Base64URL.encode(xCoordinate), y: Base64URL.encode(yCoordinate))
    }

    /// The JWK as compact JSON with exactly the required members in the
    /// lexicographic order RFC 7638 section 3.2 prescribes:
    /// `{"crv":"P-256","kty":"EC","x":"…","y":"…"}`.
    ///
    /// This is both the input of the JWK thumbprint and the `jwk` member of a
    /// proof header, so the two can never disagree. No escaping is needed:
    /// every member value is base64url or a fixed ASCII name.
    public var canonicalJSON: String {
        #"{"crv":"P-256","kty":"EC","x":""# + x + #"","y":""# + y + #""}"#
    }

    /// The canonical JSON; a public key is not secret.
    public var description: String { canonicalJSON }

    /// Whether `text` is what base64url without padding makes of 32 bytes:
    /// 43 characters of the URL-safe alphabet whose last character carries
    /// no bits beyond the 256 (the 2 spare bits are zero).
    /// - Parameter text: a candidate coordinate.
    /// - Returns: true for a canonical encoding.
    public static func isCanonicalCoordinate(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard utf8.count == coordinateLength else { return false }
        var index = 0
        for byte in utf8 {
            index += 1
            let isAlphabet =
                (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                || byte == 0x2D || byte == 0x5F
            guard isAlphabet else { return false }
            if index == coordinateLength {
                // The sextet of the last character must end in two zero bits.
                guard let sextet = sextetValue(byte), sextet & 0b11 == 0 else { return false }
            }
        }
        return true
    }

    private static func sextetValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x41...0x5A: return byte - 0x41
        case 0x61...0x7A: return byte - 0x61 + 26
        case 0x30...0x39: return byte - 0x30 + 52
        case 0x2D: return 62
        case 0x5F: return 63
        default: return nil
        }
    }
}
