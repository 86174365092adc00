/// Lowercase hexadecimal text of bytes, as the wire contract writes SHA-256
/// values (`sha256` of uploads and attachments) and as ids and file names use it.
public enum Hex {
    @usableFromInline static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Encodes bytes as lowercase hexadecimal, two characters a byte.
    /// - Parameter bytes: the bytes.
    /// - Returns: the text.
    @inlinable
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
