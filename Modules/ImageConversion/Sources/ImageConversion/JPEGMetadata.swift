/// What a decoder found beside the pixels.
struct PhotoMetadata: Sendable {
    /// The EXIF directories (for a TIFF file: its own first directory).
    var exif: TIFFDirectories?
    /// The XMP packet.
    var xmp: [UInt8]?
    /// The ICC colour profile.
    var icc: [UInt8]?
}

/// The metadata blocks of the JPEG, chosen by the one rule for every photo
/// shared (the architecture decision "Photos as JPEG"), for a converted
/// photo and for one sent as it is (``JPEGMetadataRemover``,
/// ``PNGMetadataRemover``) alike:
///
/// - EXIF is rebuilt, not copied: the descriptive tags of IFD0 (make,
///   model, time, author, resolution), the EXIF directory without the maker
///   note (opaque, with offsets of its own that do not survive a move) and
///   without the interoperability pointer, and, only with `keepMetadata`,
///   the GPS directory and the tags that name the camera's owner or its
///   serial numbers (``identifyingExifTags``). A converted photo's
///   orientation is written as 1 (the pixels are turned) and its pixel
///   dimensions as the JPEG's; a photo sent as it is keeps both. No
///   thumbnail (IFD1) is carried: it shows the original unturned, and can
///   show what was cropped.
/// - XMP only with `keepMetadata` (it can repeat the location, and names people).
/// - The ICC profile always: it is how the colours are meant, not about the person.
struct JPEGMetadata: Sendable {
    /// The APP1 prefix of EXIF.
    static let exifPrefix: [UInt8] = Array("Exif".utf8) + [0, 0]
    /// The APP1 prefix of XMP (its namespace, NUL-terminated).
    static let xmpPrefix: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
    /// The most a JPEG marker segment holds.
    static let markerCapacity = 65_533
    /// The largest ICC profile carried (libjpeg splits it over APP2 markers).
    static let maximumICCBytes = 1 << 20
    /// An entry larger than this is the first to go when EXIF does not fit one marker.
    static let largeEntryBytes = 4096

    /// IFD0 tags carried: ImageDescription, Make, Model, XResolution,
    /// YResolution, ResolutionUnit, Software, DateTime, Artist,
    /// HostComputer, Copyright. Everything else in IFD0 describes the
    /// stored image (its strips, its samples), not the photo.
    static let primaryTags: Set<UInt16> = [
        0x010E, 0x010F, 0x0110, 0x011A, 0x011B, 0x0128, 0x0131, 0x0132, 0x013B, 0x013C, 0x8298,
    ]
    static let orientationTag: UInt16 = 0x0112
    static let makerNoteTag: UInt16 = 0x927C
    static let interoperabilityPointer: UInt16 = 0xA005
    static let pixelXDimension: UInt16 = 0xA002
    static let pixelYDimension: UInt16 = 0xA003
    /// EXIF tags that name a person or one camera: CameraOwnerName,
    /// BodySerialNumber, LensSerialNumber. Kept only with `keepMetadata`.
    static let identifyingExifTags: Set<UInt16> = [0xA430, 0xA431, 0xA435]

    /// The whole APP1 payload of EXIF, or nil.
    let exif: [UInt8]?
    /// The whole APP1 payload of XMP, or nil.
    let xmp: [UInt8]?
    /// The ICC profile, or nil.
    let icc: [UInt8]?
    /// Whether the original said where it was taken and the JPEG does not.
    let removedLocation: Bool

    /// - Parameters:
    ///   - metadata: what the original carried.
    ///   - keep: `keepMetadata`: the GPS directory and XMP too.
    ///   - width: the JPEG's width (after the orientation was applied).
    ///   - height: the JPEG's height.
    init(_ metadata: PhotoMetadata, keep: Bool, width: Int, height: Int) {
        let xmpPayload = metadata.xmp.map { Self.xmpPrefix + $0 }
        xmp = keep ? xmpPayload.flatMap { $0.count <= Self.markerCapacity ? $0 : nil } : nil
        icc = metadata.icc.flatMap { !$0.isEmpty && $0.count <= Self.maximumICCBytes ? $0 : nil }
        let exifLocation = !(metadata.exif?.gps.isEmpty ?? true)
        let xmpLocation = metadata.xmp.map { Self.mentionsLocation($0) } ?? false
        removedLocation = !keep && (exifLocation || xmpLocation)
        exif = metadata.exif.flatMap {
            Self.exifPayload($0, keep: keep, orientation: 1, dimensions: (width, height))
        }
    }

    /// Whether an XMP packet names a GPS property (`exif:GPSLatitude` and the like).
    static func mentionsLocation(_ packet: [UInt8]) -> Bool {
        let needle = Array("GPS".utf8)
        guard packet.count >= needle.count else { return false }
        return (0...(packet.count - needle.count)).contains { start in
            packet[start] == needle[0] && packet[start + 1] == needle[1] && packet[start + 2] == needle[2]
        }
    }

    /// EXIF rebuilt by the rule, made to fit one marker: large entries go
    /// first, then the EXIF directory, then everything.
    /// - Parameters:
    ///   - source: the original's directories.
    ///   - keep: `keepMetadata`: the GPS directory and ``identifyingExifTags`` too.
    ///   - orientation: the Orientation to write, nil for none.
    ///   - dimensions: the pixel dimensions to write where the EXIF
    ///     directory has them; nil keeps the original's (a photo sent as it is).
    /// - Returns: the APP1 payload (`Exif\0\0` and the TIFF structure), or
    ///   nil when not even IFD0 fits one marker.
    static func exifPayload(
        _ source: TIFFDirectories, keep: Bool, orientation: Int?, dimensions: (width: Int, height: Int)?
    ) -> [UInt8]? {
        let little = source.littleEndian
        var primary = source.primary.filter { primaryTags.contains($0.tag) }
        if let orientation {
            primary.append(
                TIFFEntry(tag: orientationTag, type: 3, count: 1, value: ExifWriter.short(UInt16(orientation), little)))
        }
        var exif = source.exif.filter {
            $0.tag != makerNoteTag && $0.tag != interoperabilityPointer
                && (keep || !identifyingExifTags.contains($0.tag))
        }
        if let (width, height) = dimensions {
            for (tag, value) in [(pixelXDimension, width), (pixelYDimension, height)] {
                if let index = exif.firstIndex(where: { $0.tag == tag }) {
                    exif[index] = TIFFEntry(
                        tag: tag, type: 4, count: 1, value: ExifWriter.long(UInt32(value), little))
                }
            }
        }
        var gps = keep ? source.gps : []
        let capacity = markerCapacity - exifPrefix.count
        var bytes = ExifWriter.serialize(primary: primary, exif: exif, gps: gps, littleEndian: little)
        if bytes.count > capacity {
            primary.removeAll { $0.value.count > largeEntryBytes }
            exif.removeAll { $0.value.count > largeEntryBytes }
            gps.removeAll { $0.value.count > largeEntryBytes }
            bytes = ExifWriter.serialize(primary: primary, exif: exif, gps: gps, littleEndian: little)
        }
        if bytes.count > capacity {
            bytes = ExifWriter.serialize(primary: primary, exif: [], gps: gps, littleEndian: little)
        }
        return bytes.count > capacity ? nil : exifPrefix + bytes
    }
}

/// Writes a TIFF structure for EXIF: a header, IFD0 with pointers to the
/// EXIF and GPS directories (each only when it has entries), entries sorted
/// by tag, values longer than four bytes after their directory on even
/// offsets, and no next directory.
enum ExifWriter {
    static func short(_ value: UInt16, _ little: Bool) -> [UInt8] {
        little ? [UInt8(value & 0xFF), UInt8(value >> 8)] : [UInt8(value >> 8), UInt8(value & 0xFF)]
    }

    static func long(_ value: UInt32, _ little: Bool) -> [UInt8] {
        let high = short(UInt16(value >> 16), little)
        let low = short(UInt16(value & 0xFFFF), little)
        return little ? low + high : high + low
    }

    /// The bytes of a directory's table and values.
    private static func size(of entries: [TIFFEntry]) -> Int {
        2 + 12 * entries.count + 4 + entries.reduce(0) { $0 + ($1.value.count > 4 ? ($1.value.count + 1) & ~1 : 0) }
    }

    static func serialize(primary: [TIFFEntry], exif: [TIFFEntry], gps: [TIFFEntry], littleEndian little: Bool)
        -> [UInt8]
    {
        let exif = normalized(exif)
        let gps = normalized(gps)
        // Placeholders of the right size, so IFD0's size is known before its pointers' values.
        var first = normalized(
            primary.filter { $0.tag != TIFFDirectories.exifPointer && $0.tag != TIFFDirectories.gpsPointer })
        if !exif.isEmpty {
            first.append(TIFFEntry(tag: TIFFDirectories.exifPointer, type: 4, count: 1, value: [0, 0, 0, 0]))
        }
        if !gps.isEmpty {
            first.append(TIFFEntry(tag: TIFFDirectories.gpsPointer, type: 4, count: 1, value: [0, 0, 0, 0]))
        }
        let exifOffset = 8 + size(of: first)
        let gpsOffset = exifOffset + (exif.isEmpty ? 0 : size(of: exif))
        first = first.map { entry in
            switch entry.tag {
            case TIFFDirectories.exifPointer:
                return TIFFEntry(tag: entry.tag, type: 4, count: 1, value: long(UInt32(exifOffset), little))
            case TIFFDirectories.gpsPointer:
                return TIFFEntry(tag: entry.tag, type: 4, count: 1, value: long(UInt32(gpsOffset), little))
            default: return entry
            }
        }
        var out: [UInt8] = little ? [0x49, 0x49] : [0x4D, 0x4D]
        out += short(42, little) + long(8, little)
        append(normalized(first), to: &out, little)
        if !exif.isEmpty { append(exif, to: &out, little) }
        if !gps.isEmpty { append(gps, to: &out, little) }
        return out
    }

    /// One entry per tag (the first), in ascending order, as TIFF requires.
    private static func normalized(_ entries: [TIFFEntry]) -> [TIFFEntry] {
        var seen = Set<UInt16>()
        return entries.filter { seen.insert($0.tag).inserted }.sorted { $0.tag < $1.tag }
    }

    /// Appends a directory whose entries are ``normalized(_:)``.
    private static func append(_ sorted: [TIFFEntry], to out: inout [UInt8], _ little: Bool) {
        let start = out.count
        var valueOffset = start + 2 + 12 * sorted.count + 4
        var values: [UInt8] = []
        out += short(UInt16(sorted.count), little)
        for entry in sorted {
            out += short(entry.tag, little) + short(entry.type, little) + long(entry.count, little)
            if entry.value.count <= 4 {
                out += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
            } else {
                out += long(UInt32(valueOffset), little)
                values += entry.value
                if entry.value.count % 2 == 1 { values.append(0) }
                valueOffset += (entry.value.count + 1) & ~1
            }
        }
        out += long(0, little)
        out += values
    }
}
