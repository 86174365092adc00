/// One entry of a TIFF directory (EXIF is a TIFF structure): its tag, its
/// type and count, and its value's bytes in the structure's byte order.
struct TIFFEntry: Hashable, Sendable {
    let tag: UInt16
    let type: UInt16
    let count: UInt32
    let value: [UInt8]
}

/// The directories of a TIFF structure that metadata lives in: the first
/// image's directory (IFD0), and the EXIF and GPS directories it points
/// to. Read from bytes that are hostile: every offset and count is checked
/// against the bytes there are, every size is bounded, and a directory that
/// cannot be read is left out rather than guessed at.
struct TIFFDirectories: Hashable, Sendable {
    /// The tags that point to other directories.
    static let exifPointer: UInt16 = 0x8769
    static let gpsPointer: UInt16 = 0x8825
    /// The most entries a directory may have (real ones have a few dozen).
    static let maximumEntries = 1024
    /// The largest value read (an ICC profile or an XMP packet inside a TIFF file).
    static let maximumValueBytes = 1 << 20
    /// The most bytes read for one structure, whatever its entries claim.
    static let maximumTotalBytes = 4 << 20

    /// Whether numbers are little-endian (`II`) rather than big-endian (`MM`).
    let littleEndian: Bool
    /// IFD0's entries, without the two pointers.
    var primary: [TIFFEntry]
    /// The EXIF directory's entries (camera settings, times), empty when none.
    var exif: [TIFFEntry]
    /// The GPS directory's entries (the location), empty when none.
    var gps: [TIFFEntry]

    /// The Orientation tag of IFD0 (1 to 8), or nil when absent or not a value in range.
    var orientation: Int? {
        guard let entry = primary.first(where: { $0.tag == 0x0112 }), entry.count == 1, entry.type == 3 else {
            return nil
        }
        let value = Int(Self.uint16(entry.value, at: 0, littleEndian: littleEndian))
        return (1...8).contains(value) ? value : nil
    }

    /// The raw bytes of an IFD0 entry of a byte type (BYTE or UNDEFINED), such as
    /// a TIFF file's ICC profile (34675) or XMP packet (700).
    func primaryBytes(tag: UInt16) -> [UInt8]? {
        primary.first { $0.tag == tag && ($0.type == 1 || $0.type == 7) }?.value
    }

    /// Reads a TIFF structure.
    /// - Parameter read: `count` bytes at `offset` from the structure's
    ///   start, or nil when there are not that many.
    /// - Returns: the directories, or nil when there is no valid header or IFD0.
    static func parse(_ read: @escaping (Int64, Int) -> [UInt8]?) -> TIFFDirectories? {
        guard let header = read(0, 8) else { return nil }
        let little: Bool
        switch (header[0], header[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        guard uint16(header, at: 2, littleEndian: little) == 42 else { return nil }
        var reader = DirectoryReader(read: read, littleEndian: little)
        let first = Int64(uint32(header, at: 4, littleEndian: little))
        guard let primary = reader.directory(at: first) else { return nil }
        var directories = TIFFDirectories(littleEndian: little, primary: [], exif: [], gps: [])
        for entry in primary {
            switch entry.tag {
            case exifPointer: directories.exif = reader.pointed(by: entry, not: first) ?? []
            case gpsPointer: directories.gps = reader.pointed(by: entry, not: first) ?? []
            default: directories.primary.append(entry)
            }
        }
        return directories
    }

    /// Reads a structure held in memory.
    static func parse(_ bytes: [UInt8]) -> TIFFDirectories? {
        parse { offset, count in
            guard offset >= 0, count >= 0, offset <= Int64(bytes.count), Int64(count) <= Int64(bytes.count) - offset
            else { return nil }
            return Array(bytes[Int(offset)..<Int(offset) + count])
        }
    }

    static func uint16(_ bytes: [UInt8], at index: Int, littleEndian: Bool) -> UInt16 {
        let a = UInt16(bytes[index])
        let b = UInt16(bytes[index + 1])
        return littleEndian ? a | b << 8 : a << 8 | b
    }

    static func uint32(_ bytes: [UInt8], at index: Int, littleEndian: Bool) -> UInt32 {
        let a = UInt32(uint16(bytes, at: index, littleEndian: littleEndian))
        let b = UInt32(uint16(bytes, at: index + 2, littleEndian: littleEndian))
        return littleEndian ? a | b << 16 : a << 16 | b
    }

    /// The size of one value of a TIFF type, nil for a type that does not exist.
    static func typeSize(_ type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7: return 1
        case 3, 8: return 2
        case 4, 9, 11, 13: return 4
        case 5, 10, 12: return 8
        default: return nil
        }
    }
}

/// Reads directories within the byte budget.
private struct DirectoryReader {
    let read: (Int64, Int) -> [UInt8]?
    let littleEndian: Bool
    var spent = 0

    /// The bytes, or nil when they are not there or the budget is spent.
    mutating func take(_ offset: Int64, _ count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, spent + count <= TIFFDirectories.maximumTotalBytes else { return nil }
        spent += count
        return read(offset, count)
    }

    /// The entries of the directory at `offset`; entries of an unknown type,
    /// or whose value is too large or not there, are left out.
    mutating func directory(at offset: Int64) -> [TIFFEntry]? {
        guard offset >= 8, let head = take(offset, 2) else { return nil }
        let count = Int(TIFFDirectories.uint16(head, at: 0, littleEndian: littleEndian))
        guard count <= TIFFDirectories.maximumEntries, let table = take(offset + 2, count * 12) else { return nil }
        var entries: [TIFFEntry] = []
        for index in 0..<count {
            let base = index * 12
            let tag = TIFFDirectories.uint16(table, at: base, littleEndian: littleEndian)
            let type = TIFFDirectories.uint16(table, at: base + 2, littleEndian: littleEndian)
            let number = TIFFDirectories.uint32(table, at: base + 4, littleEndian: littleEndian)
            guard let size = TIFFDirectories.typeSize(type) else { continue }
            let length = Int64(size) * Int64(number)
            guard length <= TIFFDirectories.maximumValueBytes else { continue }
            let value: [UInt8]
            if length <= 4 {
                value = Array(table[(base + 8)..<(base + 8 + Int(length))])
            } else {
                let at = Int64(TIFFDirectories.uint32(table, at: base + 8, littleEndian: littleEndian))
                guard let bytes = take(at, Int(length)) else { continue }
                value = bytes
            }
            entries.append(TIFFEntry(tag: tag, type: type, count: number, value: value))
        }
        return entries
    }

    /// The directory a pointer entry names, unless it is `forbidden` (a loop back to IFD0).
    mutating func pointed(by entry: TIFFEntry, not forbidden: Int64) -> [TIFFEntry]? {
        guard entry.count == 1, entry.type == 4 || entry.type == 13 else { return nil }
        let offset = Int64(TIFFDirectories.uint32(entry.value, at: 0, littleEndian: littleEndian))
        guard offset != forbidden else { return nil }
        return directory(at: offset)
    }
}
