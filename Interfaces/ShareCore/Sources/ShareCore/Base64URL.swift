public import Foundation

/// Base64url without padding (RFC 4648 section 5), as JOSE and RFC 9530
/// digests need it.
public enum Base64URL {
    /// Encodes bytes as unpadded base64url.
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Decodes unpadded (or padded) base64url.
    /// - Throws: ``ShareCoreError/invalidBase64URL`` for characters outside
    ///   the alphabet or an impossible length.
    public static func decode(_ text: some StringProtocol) throws -> [UInt8] {
        var s = String(text)
        guard !s.contains("+"), !s.contains("/") else { throw ShareCoreError.invalidBase64URL }
        s = s.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        switch s.count % 4 {
        case 0: break
        case 2: s += "=="
        case 3: s += "="
        default: throw ShareCoreError.invalidBase64URL
        }
        guard let data = Data(base64Encoded: s) else { throw ShareCoreError.invalidBase64URL }
        return [UInt8](data)
    }
}
