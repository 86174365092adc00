/// The canonical 8-4-4-4-12 lowercase text of a UUID, written into a byte
/// buffer.
///
/// ShareCore's `UUIDv7.description` formats each byte with
/// `String(format:)`, about 22 µs per id on the reference machine, which is
/// most of a signature's cost; the `jti` of every proof is written here
/// instead, from the same bytes.
enum UUIDText {
    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends the canonical text of 16 bytes.
    /// - Parameters:
    ///   - bytes: the UUID's 16 bytes in network order.
    ///   - output: the buffer to append 36 characters to.
    static func append(_ bytes: [UInt8], to output: inout [UInt8]) {
        for (i, byte) in bytes.enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { output.append(0x2D) }
            output.append(hex[Int(byte >> 4)])
            output.append(hex[Int(byte & 0x0F)])
        }
    }
}
