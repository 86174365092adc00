/// Unpadded base64url (RFC 4648 section 5), as JOSE and RFC 9530 digests
/// need it.
///
/// Table-driven and appending straight into byte buffers: DPoP proofs are
/// on every request's path, and a Foundation-string version measured about
/// 40 µs per 300 bytes, more than the P-256 signature itself. Decoding is
/// strict: no padding, no characters outside the URL-safe alphabet, and no
/// non-zero spare bits in the last character.
// The hot entry points are @inlinable so that callers in other packages (DPoP
// signs and verifies a proof per request) get specialized code, not generic
// calls through witness tables across the module boundary.
public enum Base64URL {
    @usableFromInline static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The sextet value of each byte, or 0xFF for bytes outside the alphabet.
    @usableFromInline static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// The length of the encoding of `count` bytes (no padding).
    /// - Parameter count: the number of input bytes.
    /// - Returns: the number of base64url characters.
    @inlinable
    public static func encodedCount(of count: Int) -> Int {
        (count / 3) * 4 + (count % 3 == 0 ? 0 : count % 3 + 1)
    }

    /// Writes the encoding of `input` to memory the caller owns, which must
    /// have room for ``encodedCount(of:)`` bytes.
    /// - Parameters:
    ///   - input: the bytes to encode.
    ///   - output: where the characters go.
    /// - Returns: how many bytes were written.
    @inlinable
    @discardableResult
    public static func encode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutablePointer<UInt8>) -> Int {
        let n = input.count
        alphabet.withUnsafeBufferPointer { a in
            var out = output
            var i = 0
            while i + 3 <= n {
                let v = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2])
                out[0] = a[Int(v >> 18)]
                out[1] = a[Int((v >> 12) & 0x3F)]
                out[2] = a[Int((v >> 6) & 0x3F)]
                out[3] = a[Int(v & 0x3F)]
                out += 4
                i += 3
            }
            switch n - i {
            case 1:
                let v = UInt32(input[i]) << 16
                out[0] = a[Int(v >> 18)]
                out[1] = a[Int((v >> 12) & 0x3F)]
            case 2:
                let v = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8
                out[0] = a[Int(v >> 18)]
                out[1] = a[Int((v >> 12) & 0x3F)]
                out[2] = a[Int((v >> 6) & 0x3F)]
            default:
                break
            }
        }
        return encodedCount(of: n)
    }

    /// Appends the encoding of `input` to `output`.
    /// - Parameters:
    ///   - input: the bytes to encode.
    ///   - output: the buffer to append to.
    @inlinable
    public static func encode(_ input: UnsafeRawBufferPointer, appendingTo output: inout [UInt8]) {
        let encodedCount = encodedCount(of: input.count)
        guard encodedCount > 0 else { return }
        let start = output.count
        // Grow once, then write through a pointer: appending byte by byte
        // costs a uniqueness check per byte, which showed in profiles.
        output.append(contentsOf: repeatElement(0, count: encodedCount))
        output.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            encode(input, into: base + start)
        }
    }

    /// Appends the encoding of a byte array.
    /// - Parameters:
    ///   - input: the bytes to encode.
    ///   - output: the buffer to append to.
    @inlinable
    public static func encode(_ input: [UInt8], appendingTo output: inout [UInt8]) {
        input.withUnsafeBytes { encode($0, appendingTo: &output) }
    }

    /// Encodes bytes as a string.
    /// - Parameter input: the bytes.
    /// - Returns: the unpadded base64url text.
    @inlinable
    public static func encode<Bytes: Sequence>(_ input: Bytes) -> String where Bytes.Element == UInt8 {
        var out = [UInt8]()
        let done: Void? = input.withContiguousStorageIfAvailable {
            encode(UnsafeRawBufferPointer($0), appendingTo: &out)
        }
        if done == nil { encode(Array(input), appendingTo: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes strict unpadded base64url text.
    /// - Parameter text: the encoded text.
    /// - Returns: the decoded bytes.
    /// - Throws: ``ShareCoreError/invalidBase64URL`` for padding, characters
    ///   outside the URL-safe alphabet, an impossible length, or non-zero
    ///   spare bits (so every byte string has exactly one accepted encoding).
    public static func decode(_ text: some StringProtocol) throws -> [UInt8] {
        guard let bytes = decode(text.utf8) else { throw ShareCoreError.invalidBase64URL }
        return bytes
    }

    /// Decodes strict unpadded base64url.
    /// - Parameter text: the encoded bytes (ASCII).
    /// - Returns: the decoded bytes, or nil when `text` is not a canonical encoding.
    @inlinable
    public static func decode<Text: Collection>(_ text: Text) -> [UInt8]? where Text.Element == UInt8 {
        let n = text.count
        guard n % 4 != 1 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(n * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        let ok = values.withUnsafeBufferPointer { table -> Bool in
            for byte in text {
                let value = table[Int(byte)]
                guard value != 0xFF else { return false }
                accumulator = accumulator << 6 | UInt32(value)
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                    accumulator &= (1 << UInt32(bits)) - 1
                }
            }
            return true
        }
        // Leftover bits must be zero, or two encodings would decode alike.
        guard ok, accumulator == 0 else { return nil }
        return out
    }
}
