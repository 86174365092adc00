import ShareKitSystemTesting

/// Hexadecimal helpers for test vectors.
enum Hex {
    /// Decodes hexadecimal text (no separators).
    static func bytes(_ text: String) -> [UInt8] {
        var out = [UInt8]()
        var chars = Array(text.utf8)[...]
        while chars.count >= 2 {
            out.append(UInt8(String(decoding: chars.prefix(2), as: UTF8.self), radix: 16) ?? 0)
            chars = chars.dropFirst(2)
        }
        return out
    }

    /// Encodes bytes as lowercase hexadecimal.
    static func string(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
