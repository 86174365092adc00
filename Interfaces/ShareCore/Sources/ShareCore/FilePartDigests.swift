/// The SHA-256 of each part of one file, the file cut at one part size: what
/// the composite upload digest is made of (the SHA-256 of these digests
/// concatenated in part order), made while the file was written (the share
/// inbox's copy) and kept with it, so that an upload of that file needs no
/// pass of its own over it.
///
/// Digests read back from a file somebody else could write (the share inbox
/// is in the shared container) are checked before use: a value that does
/// not fit its file is no value (``init(partSize:hexDigests:fileSize:)``
/// answers nil), and the file is hashed as if none had been kept.
public struct FilePartDigests: Hashable, Sendable {
    /// The size the file was cut at (the server's `upload_part_size` when
    /// the digests were made); the last part may be shorter.
    public let partSize: Int64
    /// Each part's SHA-256 (32 bytes), in part order; one digest (of no
    /// bytes) for an empty file, as the upload protocol counts it.
    public let digests: [[UInt8]]

    /// The most parts whose digests are kept (64 hex digits each in a
    /// manifest: 4 MiB of digests at most is far above any server's limit
    /// divided by its part size, and below what a manifest may hold is the
    /// caller's check); a file of more parts is hashed when it is uploaded.
    public static let maximumParts = 16_384

    /// Checks digests for a file of `fileSize` bytes.
    /// - Parameters:
    ///   - partSize: the part size, above 0.
    ///   - digests: one 32-byte digest per part.
    ///   - fileSize: the file's size, at least 0.
    /// - Returns: nil when the count is not the file's number of parts at
    ///   `partSize`, a digest is not 32 bytes, or a number is out of range.
    public init?(partSize: Int64, digests: [[UInt8]], fileSize: Int64) {
        guard let count = Self.partsCount(fileSize: fileSize, partSize: partSize), digests.count == count,
            digests.allSatisfy({ $0.count == 32 })
        else { return nil }
        self.partSize = partSize
        self.digests = digests
    }

    /// Reads digests written as 64 lowercase hexadecimal digits each.
    /// - Parameters:
    ///   - partSize: the part size, above 0.
    ///   - hexDigests: one digest per part, 64 lowercase hex digits.
    ///   - fileSize: the file's size.
    /// - Returns: nil when any digest is not exactly 64 lowercase hex digits,
    ///   or under the conditions of ``init(partSize:digests:fileSize:)``.
    public init?(partSize: Int64, hexDigests: [String], fileSize: Int64) {
        guard let count = Self.partsCount(fileSize: fileSize, partSize: partSize), hexDigests.count == count
        else { return nil }
        var digests: [[UInt8]] = []
        digests.reserveCapacity(count)
        for text in hexDigests {
            guard let bytes = Self.bytes(hex: text) else { return nil }
            digests.append(bytes)
        }
        self.init(partSize: partSize, digests: digests, fileSize: fileSize)
    }

    /// The digests as 64 lowercase hexadecimal digits each.
    public var hexDigests: [String] { digests.map { Hex.encode($0) } }

    /// How many parts a file of `fileSize` bytes has at `partSize`: at least
    /// one (an empty file is one empty part).
    /// - Returns: nil when `partSize` is not above 0, `fileSize` is negative
    ///   or the count is above ``maximumParts``.
    public static func partsCount(fileSize: Int64, partSize: Int64) -> Int? {
        guard partSize > 0, fileSize >= 0 else { return nil }
        let count = max(1, fileSize / partSize + (fileSize % partSize == 0 ? 0 : 1))
        return count <= Int64(maximumParts) ? Int(count) : nil
    }

    /// Reads `key` of a record (`{"part_size": N, "sha256": ["<64 hex>", ...]}`)
    /// leniently: a missing value, a wrong type or digests that do not fit
    /// a file of `fileSize` bytes read as nil, never as an error, so that
    /// the record they belong to is read all the same and the file is hashed.
    /// - Parameters:
    ///   - container: the record's container.
    ///   - key: the field.
    ///   - fileSize: the size of the file the digests are of.
    /// - Returns: the digests, or nil.
    public static func decodeLeniently<Key: CodingKey>(
        from container: KeyedDecodingContainer<Key>, forKey key: Key, fileSize: Int64
    ) -> FilePartDigests? {
        guard let stored = try? container.decodeIfPresent(Stored.self, forKey: key) else { return nil }
        return FilePartDigests(partSize: stored.partSize, hexDigests: stored.sha256, fileSize: fileSize)
    }

    /// Writes the digests as `key` of a record, in the form
    /// ``decodeLeniently(from:forKey:fileSize:)`` reads.
    /// - Parameters:
    ///   - container: the record's container.
    ///   - key: the field.
    /// - Throws: the encoder's error.
    public func encode<Key: CodingKey>(to container: inout KeyedEncodingContainer<Key>, forKey key: Key) throws {
        try container.encode(Stored(partSize: partSize, sha256: hexDigests), forKey: key)
    }

    /// The digests as records hold them.
    private struct Stored: Codable {
        var partSize: Int64
        var sha256: [String]

        private enum CodingKeys: String, CodingKey {
            case partSize = "part_size"
            case sha256
        }
    }

    /// 32 bytes from 64 lowercase hex digits; nil for anything else.
    private static func bytes(hex text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count == 64 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        var index = 0
        while index < 64 {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    /// One lowercase hex digit's value.
    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
}
