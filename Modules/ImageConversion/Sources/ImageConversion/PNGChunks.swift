import ShareKitImageConversionInterface

/// The chunks of a PNG file as this code reads them (the pixels are
/// libpng's): each chunk's type, where its data is and how long it is.
/// Every length is checked against the file; a chunk that runs past the
/// end ends the walk.
struct PNGChunks {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The most chunks read (real files have a few dozen; an image's data
    /// may be split into thousands of IDAT chunks, which are not kept).
    static let maximumChunks = 1 << 20
    /// Text chunks kept by the metadata rule, by keyword: what EXIF's
    /// kept IFD0 tags say (title, author, copyright, time, software).
    /// `Comment`, XMP (`XML:com.adobe.xmp`), raw profiles (EXIF, IPTC and
    /// XMP hex-encoded by ImageMagick) and any other keyword are left out.
    static let keptTextKeywords: Set<String> = [
        "Title", "Author", "Description", "Copyright", "Creation Time", "Software", "Disclaimer", "Warning",
    ]

    /// One chunk.
    struct Chunk {
        /// Its type, four ASCII letters (`IHDR`, `eXIf`).
        let type: String
        /// The offset of its length field.
        let start: Int64
        /// The length of its data.
        let length: Int64

        /// The offset of its data.
        var data: Int64 { start + 8 }
        /// The offset after its CRC.
        var end: Int64 { start + 12 + length }
    }

    let source: SourceFile

    /// Walks the chunks, calling `visit` for each until it returns false,
    /// `IEND` or the end of the file.
    /// - Returns: the offset after the last whole chunk, and whether the
    ///   walk ended at `IEND` (false for a file cut short or damaged there).
    /// - Throws: ``ImageConversionError/malformed(_:)`` without the PNG
    ///   signature; errors of `visit`.
    @discardableResult
    func walk(_ visit: (Chunk) throws(ImageConversionError) -> Bool) throws(ImageConversionError) -> (
        end: Int64, complete: Bool
    ) {
        guard try source.bytes(at: 0, count: 8) == Self.signature else { throw .malformed("not a PNG file") }
        var offset: Int64 = 8
        for _ in 0..<Self.maximumChunks {
            let head = try source.bytes(at: offset, count: 8)
            guard head.count == 8 else { break }
            let length = Int64(Self.uint32(head, 0))
            guard length <= Int64(Int32.max), offset + 12 + length <= source.size else { break }
            let chunk = Chunk(type: String(decoding: head[4..<8], as: UTF8.self), start: offset, length: length)
            offset = chunk.end
            guard try visit(chunk) else { break }
            if chunk.type == "IEND" { return (offset, true) }
        }
        return (offset, false)
    }

    /// A chunk's data, or nil when it is longer than `limit`.
    func data(of chunk: Chunk, limit: Int = TIFFDirectories.maximumValueBytes) throws(ImageConversionError) -> [UInt8]?
    {
        guard chunk.length <= Int64(limit) else { return nil }
        let bytes = try source.bytes(at: chunk.data, count: Int(chunk.length))
        return bytes.count == Int(chunk.length) ? bytes : nil
    }

    /// The keyword of a text chunk (`tEXt`, `zTXt`, `iTXt`): its bytes up to the first NUL.
    static func keyword(_ data: [UInt8]) -> String {
        String(decoding: data.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// The XMP packet of an `iTXt` chunk keyed `XML:com.adobe.xmp`, when it is not compressed.
    static func xmp(_ data: [UInt8]) -> [UInt8]? {
        guard keyword(data) == "XML:com.adobe.xmp", let nul = data.firstIndex(of: 0), nul + 2 < data.count,
            data[nul + 1] == 0
        else { return nil }
        // Keyword NUL, compression flag, method, language NUL, translated keyword NUL, text.
        var rest = data[(nul + 3)...]
        for _ in 0..<2 {
            guard let end = rest.firstIndex(of: 0) else { return nil }
            rest = rest[(end + 1)...]
        }
        return Array(rest)
    }

    /// The EXIF directories of an `eXIf` chunk (with or without the `Exif\0\0` some writers put first).
    static func exif(_ data: [UInt8]) -> TIFFDirectories? {
        TIFFDirectories.parse(data.starts(with: JPEGMetadata.exifPrefix) ? Array(data.dropFirst(6)) : data)
    }

    static func uint32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// A whole chunk: length, type, data, CRC.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(CRC32.checksum(body))
    }
}

/// The CRC-32 of PNG chunks (ISO 3309, the polynomial of zlib).
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        return crc
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }
}

/// A PNG sent as it is, without its location and identifying metadata, by
/// the rule of ``JPEGMetadata``: the `eXIf` chunk is rebuilt (no GPS
/// directory, no owner or serial numbers, the orientation kept), text
/// chunks other than ``PNGChunks/keptTextKeywords`` (XMP, comments, raw
/// profiles) are left out, every other chunk is copied byte for byte, and
/// bytes after `IEND` are left out (a file cut short is copied as it is
/// from where its chunks stop making sense, unless a metadata chunk is cut
/// short there). The pixels are not decoded.
///
/// Memory: one chunk of metadata (at most 1 MiB) and a 64 KiB buffer.
struct PNGMetadataRemover {
    let source: SourceFile
    let options: JPEGConversionOptions

    func remove(into destination: Int32) throws(ImageConversionError) -> MetadataRemoval {
        let chunks = PNGChunks(source: source)
        var output = SequentialWriter(fd: destination)
        output.write(PNGChunks.signature)
        var removedLocation = false
        var changed = false
        var exifSeen = false
        let end = try chunks.walk { chunk throws(ImageConversionError) in
            if let stop = options.checkpoint() { throw .stopped(stop) }
            switch chunk.type {
            case "eXIf":
                changed = true
                guard !exifSeen, let data = try chunks.data(of: chunk), let directories = PNGChunks.exif(data) else {
                    return true
                }
                exifSeen = true
                removedLocation = removedLocation || !directories.gps.isEmpty
                if let rebuilt = JPEGMetadata.exifPayload(
                    directories, keep: false, orientation: directories.orientation, dimensions: nil)
                {
                    output.write(PNGChunks.chunk("eXIf", Array(rebuilt.dropFirst(JPEGMetadata.exifPrefix.count))))
                }
            case "tEXt", "zTXt", "iTXt":
                let head = try source.bytes(at: chunk.data, count: Int(min(chunk.length, 80)))
                if PNGChunks.keptTextKeywords.contains(PNGChunks.keyword(head)) {
                    try copy(chunk, into: &output)
                } else {
                    changed = true
                    if let data = try chunks.data(of: chunk), JPEGMetadata.mentionsLocation(data) {
                        removedLocation = true
                    }
                }
            default:
                try copy(chunk, into: &output)
            }
            return true
        }
        let rest = try source.bytes(at: end.end, count: 8)
        let restType = rest.count == 8 ? String(decoding: rest[4..<8], as: UTF8.self) : ""
        if !end.complete, !["eXIf", "tEXt", "zTXt", "iTXt"].contains(restType) {
            // Cut short or damaged there: the rest is copied as it was (a
            // truncated PNG is sent as the person has it, as before),
            // unless it is a metadata chunk cut short.
            try copy(PNGChunks.Chunk(type: "", start: end.end, length: source.size - end.end - 12), into: &output)
        } else if end.end < source.size {
            // Bytes after the image's end: another program's data, left out.
            changed = true
        }
        try output.flush()
        return MetadataRemoval(size: output.written, removedLocation: removedLocation, changed: changed)
    }

    /// Copies a whole chunk as it is, in pieces.
    private func copy(_ chunk: PNGChunks.Chunk, into output: inout SequentialWriter) throws(ImageConversionError) {
        var offset = chunk.start
        while offset < chunk.end {
            if let stop = options.checkpoint() { throw .stopped(stop) }
            let piece = try source.bytes(
                at: offset, count: Int(min(Int64(SequentialReader.bufferBytes), chunk.end - offset)))
            guard !piece.isEmpty else { throw .unreadable("the PNG file shrank while it was read") }
            output.write(piece)
            offset += Int64(piece.count)
        }
    }
}
