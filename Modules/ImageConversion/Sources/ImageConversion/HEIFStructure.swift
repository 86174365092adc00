import ShareKitImageConversionInterface

/// The item structure of a HEIF or AVIF file (ISO/IEC 23008-12), read by
/// this code before libheif reads the file, for one purpose: how many
/// pixels every image in it decodes to, so that a file is refused before
/// any pixel buffer exists when one of them is larger than the limit.
///
/// libheif 1.15 checks only the `ispe` property of each image, and the
/// canvas of an image made of tiles (`grid`) or of layers (`iovl`) only
/// against its largest side, 65500 here; a 2 KB file whose `ispe` says
/// 128 × 128 while its grid says 40000 × 40000 took `share` to 9 GiB.
/// Here each image counts at the size it decodes to:
///
/// - a coded image (`hvc1`, `av01`) at the size of its stream (the HEVC
///   sequence parameter sets in `hvcC` and in its data, the AV1 sequence
///   headers in `av1C` and in its data, see ``CodedImageSize``), and at its
///   `ispe`;
/// - a grid or an overlay at its canvas, from its own data;
/// - every item with an `ispe` at that size;
///
/// and every image item of the file counts, whatever its role (the primary
/// image, its tiles and layers, thumbnails, alpha, depth and other
/// auxiliary images). The decoding of the primary image (its tiles or
/// layers, each counted as often as it is pasted, and its auxiliary
/// images) may produce at most ``workFactor`` times the limit in all: a
/// grid that pastes one tile thousands of times is refused, not decoded.
///
/// Where libheif's reading and this one could differ, the file is refused:
/// two `meta` boxes (libheif takes the last), two items with one number, a
/// box that runs past its parent, an item's data outside the file.
struct HEIFStructure {
    /// The most top-level boxes looked through (real files have three or four).
    static let maximumTopLevelBoxes = 4096
    /// The largest `meta` box read (real files: a few KiB; 20000 items fit in 1 MiB).
    static let maximumMetaBytes = 16 << 20
    /// The most NAL units or OBUs read in one item's stream (a photo has a handful).
    static let maximumStreamUnits = 4096
    /// The deepest derivation followed (a grid of grids of ...).
    static let maximumDepth = 8
    /// The decoding of the primary image may produce this many times `maximumPixels`.
    static let workFactor = 4
    /// The item types libheif 1.15 takes for images.
    static let imageTypes: Set<String> = ["hvc1", "av01", "grid", "iovl", "iden", "vvc1"]
    /// The image types made of other images (their `dimg` references).
    static let derivedTypes: Set<String> = ["grid", "iovl", "iden"]

    /// Where an item's data is: `iloc`'s construction method, base offset and extents.
    struct Location {
        var method = 0
        var baseOffset: UInt64 = 0
        var extents: [(offset: UInt64, length: UInt64)] = []
    }

    /// A property box of `ipco`: its type and payload.
    struct Property {
        var type: String
        var payload: ArraySlice<UInt8>
    }

    let source: SourceFile
    /// Item number to item type (empty for an `infe` of version 0 or 1).
    private(set) var types: [UInt32: String] = [:]
    private(set) var locations: [UInt32: Location] = [:]
    /// Item number to the properties associated with it (every `ipma` box, as libheif merges them).
    private(set) var associations: [UInt32: [Int]] = [:]
    private(set) var properties: [Property] = []
    /// The items each derived image is made of: its first `dimg`
    /// reference in `iref`, the one libheif follows.
    private(set) var parts: [UInt32: [UInt32]] = [:]
    /// The auxiliary images (`auxl`) of each item.
    private(set) var auxiliaries: [UInt32: [UInt32]] = [:]
    private(set) var primary: UInt32 = 0
    private(set) var itemData: ArraySlice<UInt8>?
    /// Where the `meta` box's payload starts in the file.
    private(set) var metaOffset: Int64 = 0
    /// Where `pitm`'s item number is in the file, and its size in bytes (2 or 4).
    private(set) var primaryField: (offset: Int64, size: Int)?
    /// Each item's `infe` flags' last byte (bit 0: hidden): its place in the file and its value.
    private(set) var flagBytes: [UInt32: (offset: Int64, value: UInt8)] = [:]
    /// The length of the `meta` box: libheif reads it whole for every context.
    private(set) var metaLength = 0

    /// Checks every image of the HEIF file `source` against `maximumPixels`
    /// before libheif reads it. A file without a `meta` box is left to
    /// libheif, which refuses it.
    /// - Throws: ``ImageConversionError/tooManyPixels(width:height:limit:)``
    ///   naming the first image too large, `unsupported` when the decoding
    ///   would produce more than ``workFactor`` times the limit in all, and
    ///   `malformed` for a structure that cannot be read as libheif would.
    /// - Returns: the structure read, nil for a file without a `meta` box.
    @discardableResult
    static func check(_ source: SourceFile, maximumPixels: Int) throws(ImageConversionError) -> HEIFStructure? {
        guard let (meta, offset) = try metaBox(source) else { return nil }
        let structure = try HEIFStructure(source: source, meta: meta, offset: offset)
        try structure.checkSizes(maximumPixels: maximumPixels)
        return structure
    }

    // MARK: - Reading the boxes

    /// The payload of the one top-level `meta` box (after its header), or nil when there is none.
    private static func metaBox(_ source: SourceFile) throws(ImageConversionError) -> ([UInt8], Int64)? {
        var offset: Int64 = 0
        var found: (start: Int64, end: Int64)?
        var count = 0
        while offset + 8 <= source.size {
            count += 1
            guard count <= maximumTopLevelBoxes else {
                throw .malformed("the file has more than \(maximumTopLevelBoxes) boxes")
            }
            let head = try source.bytes(at: offset, count: 16)
            guard head.count >= 8 else { break }
            var size = Int64(Bytes.uint32(head[...], 0))
            var header: Int64 = 8
            let type = Bytes.fourCC(head[...], 4)
            if size == 1 {
                guard head.count == 16 else { break }
                size = Int64(bitPattern: Bytes.uint64(head[...], 8))
                header = 16
            } else if size == 0 {
                size = source.size - offset
            }
            if type == "uuid" { header += 16 }
            // libheif stops at a box it cannot read; nothing after it counts.
            guard size >= header, size <= source.size - offset else { break }
            if type == "meta" {
                guard found == nil else { throw .malformed("the file has two item tables (meta boxes)") }
                found = (offset + header, offset + size)
            }
            offset += size
        }
        guard let (start, end) = found else { return nil }
        guard end - start <= maximumMetaBytes else {
            throw .unsupported(
                "its item table (meta box) is \(end - start) bytes, more than the \(maximumMetaBytes) a photo's may be")
        }
        let bytes = try source.bytes(at: start, count: Int(end - start))
        guard bytes.count == Int(end - start) else { throw .malformed("the item table is cut short") }
        return (bytes, start)
    }

    private init(source: SourceFile, meta: [UInt8], offset: Int64) throws(ImageConversionError) {
        self.source = source
        metaOffset = offset
        metaLength = meta.count
        guard meta.count >= 4 else { throw .malformed("the item table is cut short") }
        let children = try Self.children(meta[4...])
        func first(_ type: String) -> ArraySlice<UInt8>? { children.first { $0.type == type }?.payload }
        if let pitm = first("pitm") {
            primary = try Bytes.read(pitm, at: 4, size: pitm.first == 0 ? 2 : 4)
            primaryField = (offset + Int64(pitm.startIndex + 4), pitm.first == 0 ? 2 : 4)
        }
        if let iinf = first("iinf") { try readItemInfo(iinf) }
        if let iloc = first("iloc") { try readLocations(iloc) }
        if let iref = first("iref") { try readReferences(iref) }
        if let iprp = first("iprp") { try readProperties(iprp) }
        itemData = first("idat")
    }

    /// The boxes one after another in `bytes`, each box's size honoured.
    /// - Throws: `malformed` when one runs past the end (libheif refuses that too).
    static func children(_ bytes: ArraySlice<UInt8>) throws(ImageConversionError) -> [Property] {
        var out: [Property] = []
        var at = bytes.startIndex
        while at < bytes.endIndex {
            guard bytes.endIndex - at >= 8 else { throw .malformed("a box is cut short") }
            var size = UInt64(Bytes.uint32(bytes, at - bytes.startIndex))
            var header = 8
            if size == 1 {
                guard bytes.endIndex - at >= 16 else { throw .malformed("a box is cut short") }
                size = Bytes.uint64(bytes, at - bytes.startIndex + 8)
                header = 16
            } else if size == 0 {
                size = UInt64(bytes.endIndex - at)
            }
            let type = Bytes.fourCC(bytes, at - bytes.startIndex + 4)
            if type == "uuid" { header += 16 }
            guard size >= UInt64(header), size <= UInt64(bytes.endIndex - at) else {
                throw .malformed("a box runs past the box it is in")
            }
            out.append(Property(type: type, payload: bytes[(at + header)..<(at + Int(size))]))
            at += Int(size)
        }
        return out
    }

    private mutating func readItemInfo(_ iinf: ArraySlice<UInt8>) throws(ImageConversionError) {
        let skip = iinf.first == 0 ? 6 : 8
        guard iinf.count >= skip else { throw .malformed("the item list is cut short") }
        for infe in try Self.children(iinf.dropFirst(skip)) where infe.type == "infe" {
            let box = infe.payload
            guard let version = box.first else { throw .malformed("an item entry is cut short") }
            let id: UInt32
            var type = ""
            switch version {
            case 0, 1: id = try Bytes.read(box, at: 4, size: 2)
            case 2:
                id = try Bytes.read(box, at: 4, size: 2)
                guard box.count >= 12 else { throw .malformed("an item entry is cut short") }
                type = Bytes.fourCC(box, 8)
            default:
                id = try Bytes.read(box, at: 4, size: 4)
                guard box.count >= 14 else { throw .malformed("an item entry is cut short") }
                type = Bytes.fourCC(box, 10)
            }
            guard types[id] == nil else { throw .malformed("two items have the number \(id)") }
            types[id] = type
            flagBytes[id] = (metaOffset + Int64(box.startIndex + 3), box[box.startIndex + 3])
        }
    }

    private mutating func readLocations(_ iloc: ArraySlice<UInt8>) throws(ImageConversionError) {
        var reader = Bytes.Reader(iloc)
        let version = try reader.read(1)
        try reader.skip(3)
        let sizes = try reader.read(2)
        let offsetSize = Int(sizes >> 12 & 0xF)
        let lengthSize = Int(sizes >> 8 & 0xF)
        let baseSize = Int(sizes >> 4 & 0xF)
        let indexSize = version > 1 ? Int(sizes & 0xF) : 0
        guard version <= 2 else { throw .malformed("the item locations have an unknown version") }
        let count = try reader.read(version < 2 ? 2 : 4)
        // libheif's own limits: 20000 items, 32 extents an item.
        guard count <= 20_000 else { throw .malformed("the file locates more than 20000 items") }
        for _ in 0..<count {
            let id = UInt32(try reader.read(version < 2 ? 2 : 4))
            var location = Location()
            if version >= 1 { location.method = Int(try reader.read(2) & 0xF) }
            try reader.skip(2)
            location.baseOffset = try reader.readSized(baseSize)
            let extents = try reader.read(2)
            guard extents <= 32 else { throw .malformed("an item has more than 32 pieces") }
            for _ in 0..<extents {
                if indexSize > 0 { _ = try reader.readSized(indexSize) }
                let offset = try reader.readSized(offsetSize)
                let length = try reader.readSized(lengthSize)
                location.extents.append((offset, length))
            }
            guard locations[id] == nil else { throw .malformed("two item locations have the number \(id)") }
            locations[id] = location
        }
    }

    /// `iref` as libheif 1.15 reads it: one reference after another, each
    /// box's size read but not used to find the next.
    private mutating func readReferences(_ iref: ArraySlice<UInt8>) throws(ImageConversionError) {
        var reader = Bytes.Reader(iref)
        let version = try reader.read(1)
        try reader.skip(3)
        let idSize = version == 0 ? 2 : 4
        while !reader.atEnd {
            let size = try reader.read(4)
            let type = Bytes.fourCC(iref, reader.position)
            try reader.skip(4)
            if size == 1 { try reader.skip(8) }
            if type == "uuid" { try reader.skip(16) }
            let from = UInt32(try reader.read(idSize))
            let count = try reader.read(2)
            var to: [UInt32] = []
            for _ in 0..<count {
                to.append(UInt32(try reader.read(idSize)))
            }
            if type == "dimg", parts[from] == nil { parts[from] = to }
            if type == "auxl" {
                for target in Set(to) { auxiliaries[target, default: []].append(from) }
            }
        }
    }

    private mutating func readProperties(_ iprp: ArraySlice<UInt8>) throws(ImageConversionError) {
        let boxes = try Self.children(iprp)
        if let ipco = boxes.first(where: { $0.type == "ipco" }) { properties = try Self.children(ipco.payload) }
        for ipma in boxes where ipma.type == "ipma" {
            var reader = Bytes.Reader(ipma.payload)
            let version = try reader.read(1)
            let flags = try reader.read(3)
            let count = try reader.read(4)
            var entry = 0
            while entry < count, !reader.atEnd {
                entry += 1
                let id = UInt32(try reader.read(version < 1 ? 2 : 4))
                for _ in 0..<(try reader.read(1)) {
                    let index = flags & 1 == 1 ? Int(try reader.read(2) & 0x7FFF) : Int(try reader.read(1) & 0x7F)
                    guard index <= properties.count else {
                        throw .malformed("an item has a property that is not there")
                    }
                    if index > 0 { associations[id, default: []].append(index) }
                }
            }
        }
    }

    // MARK: - The sizes

    /// The properties of `item` of a type.
    func properties(of item: UInt32, _ type: String) -> [ArraySlice<UInt8>] {
        (associations[item] ?? []).map { properties[$0 - 1] }.filter { $0.type == type }.map(\.payload)
    }

    /// Every size `item` decodes to or says it has: its `ispe`, its
    /// canvas, its stream's.
    private func sizes(of item: UInt32) throws(ImageConversionError) -> [(width: Int, height: Int)] {
        var sizes: [(width: Int, height: Int)] = []
        for ispe in properties(of: item, "ispe") {
            sizes.append((Int(try Bytes.read(ispe, at: 4, size: 4)), Int(try Bytes.read(ispe, at: 8, size: 4))))
        }
        switch types[item] {
        case "grid":
            let data = try stream(of: item).bytes(at: 0, count: 12)
            guard data.count >= 8 else { throw .malformed("a grid's description is cut short") }
            let wide = data[1] & 1 == 1
            guard !wide || data.count >= 12 else { throw .malformed("a grid's description is cut short") }
            let size = wide ? 4 : 2
            sizes.append(
                (
                    Int(try Bytes.read(data[...], at: 4, size: size)),
                    Int(try Bytes.read(data[...], at: 4 + size, size: size))
                ))
        case "iovl":
            let head = try stream(of: item).bytes(at: 0, count: 2)
            guard head.count == 2 else { throw .malformed("an overlay's description is cut short") }
            let size = head[1] & 1 == 1 ? 4 : 2
            let data = try stream(of: item).bytes(at: 0, count: 10 + 2 * size)
            guard data.count == 10 + 2 * size else { throw .malformed("an overlay's description is cut short") }
            sizes.append(
                (
                    Int(try Bytes.read(data[...], at: 10, size: size)),
                    Int(try Bytes.read(data[...], at: 10 + size, size: size))
                ))
        case "hvc1": sizes += try hevcSizes(of: item)
        case "av01": sizes += try av1Sizes(of: item)
        default: break
        }
        return sizes
    }

    /// The sequence parameter sets of `hvcC` and of the item's data.
    private func hevcSizes(of item: UInt32) throws(ImageConversionError) -> [(width: Int, height: Int)] {
        var sizes: [(width: Int, height: Int)] = []
        func add(_ nal: [UInt8]) throws(ImageConversionError) {
            guard let size = CodedImageSize.hevc(sequenceParameterSet: nal) else {
                throw .malformed("an HEVC parameter set cannot be read")
            }
            sizes.append(size)
        }
        for hvcC in properties(of: item, "hvcC") {
            var reader = Bytes.Reader(hvcC)
            try reader.skip(22)
            for _ in 0..<(try reader.read(1)) {
                try reader.skip(1)
                for _ in 0..<(try reader.read(2)) {
                    let length = Int(try reader.read(2))
                    let nal = try reader.bytes(length)
                    if nal.count > 2, Int(nal[nal.startIndex] >> 1 & 0x3F) == CodedImageSize.hevcSequenceParameterSet {
                        try add(Array(nal))
                    }
                }
            }
        }
        // The data: NAL units, each after a 4-byte length, as libheif hands them to libde265.
        let data = try stream(of: item)
        var position: Int64 = 0
        var units = 0
        while position + 4 <= data.length {
            units += 1
            guard units <= Self.maximumStreamUnits else {
                throw .malformed("an image's data has more than \(Self.maximumStreamUnits) NAL units")
            }
            let head = try data.bytes(at: position, count: 6)
            let length = Int64(try Bytes.read(head[...], at: 0, size: 4))
            guard length <= data.length - position - 4 else { break }
            if length > 2, head.count == 6, Int(head[4] >> 1 & 0x3F) == CodedImageSize.hevcSequenceParameterSet {
                try add(try data.bytes(at: position + 4, count: Int(min(length, 256))))
            }
            position += 4 + length
        }
        return sizes
    }

    /// The sequence headers of `av1C`'s OBUs and the item's data, read as
    /// one stream, as libheif hands them to dav1d.
    private func av1Sizes(of item: UInt32) throws(ImageConversionError) -> [(width: Int, height: Int)] {
        var sizes: [(width: Int, height: Int)] = []
        let configurations = properties(of: item, "av1C")
        guard let av1C = configurations.first else { return [] }
        var data = try stream(of: item)
        data.prefix = Array(av1C.dropFirst(4))
        for other in configurations.dropFirst() {
            sizes += try Self.av1Sizes(in: ItemStream(source: source, pieces: [], prefix: Array(other.dropFirst(4))))
        }
        return sizes + (try Self.av1Sizes(in: data))
    }

    private static func av1Sizes(in data: ItemStream) throws(ImageConversionError) -> [(width: Int, height: Int)] {
        var sizes: [(width: Int, height: Int)] = []
        var position: Int64 = 0
        var units = 0
        while position < data.length {
            units += 1
            guard units <= maximumStreamUnits else {
                throw .malformed("an image's data has more than \(maximumStreamUnits) OBUs")
            }
            let head = try data.bytes(at: position, count: 10)
            guard let header = head.first else { break }
            let type = Int(header >> 3 & 0xF)
            var at = 1 + Int(header >> 2 & 1)
            var length: Int64
            if header >> 1 & 1 == 1 {
                length = 0
                var ended = false
                for shift in 0..<8 where at < head.count {
                    let byte = head[at]
                    at += 1
                    length |= Int64(byte & 0x7F) << (7 * shift)
                    if byte & 0x80 == 0 {
                        ended = true
                        break
                    }
                }
                guard ended else { break }
            } else {
                length = data.length - position - Int64(at)
            }
            guard length >= 0, length <= data.length - position - Int64(at) else { break }
            if type == CodedImageSize.av1SequenceHeader {
                let payload = try data.bytes(at: position + Int64(at), count: Int(min(length, 256)))
                guard let size = CodedImageSize.av1(sequenceHeader: payload[...]) else {
                    throw .malformed("an AV1 sequence header cannot be read")
                }
                sizes.append(size)
            }
            position += Int64(at) + length
        }
        return sizes
    }

    /// Checks every image item, then the decoding work of the primary image.
    private func checkSizes(maximumPixels: Int) throws(ImageConversionError) {
        var decoded: [UInt32: Int] = [:]
        for item in types.keys.sorted() {
            let isImage = Self.imageTypes.contains(types[item] ?? "")
            guard isImage || !properties(of: item, "ispe").isEmpty else { continue }
            var largest = 0
            for (width, height) in try sizes(of: item) {
                let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
                guard !overflow, pixels <= maximumPixels else {
                    throw .tooManyPixels(width: width, height: height, limit: maximumPixels)
                }
                largest = max(largest, pixels)
            }
            decoded[item] = largest
        }
        var memo: [UInt32: Int] = [:]
        let budget = maximumPixels.multipliedReportingOverflow(by: Self.workFactor)
        let limit = budget.overflow ? Int.max : budget.partialValue
        let work = try work(of: primary, decoded: decoded, memo: &memo, path: [])
        guard work <= limit else {
            throw .unsupported(
                "its tiles, layers and auxiliary images decode to \(work) pixels in all, more than the \(limit) "
                    + "(\(Self.workFactor) × \(maximumPixels)) a photo's may")
        }
    }

    /// The pixels decoding `item` produces: its own, those of every image
    /// it is made of (each time it is used) and of its auxiliary images.
    private func work(of item: UInt32, decoded: [UInt32: Int], memo: inout [UInt32: Int], path: [UInt32])
        throws(ImageConversionError) -> Int
    {
        if let known = memo[item] { return known }
        guard !path.contains(item) else { throw .malformed("an image is made of itself") }
        guard path.count < Self.maximumDepth else {
            throw .malformed("images are made of images more than \(Self.maximumDepth) deep")
        }
        var total = decoded[item] ?? 0
        let parts = Self.derivedTypes.contains(types[item] ?? "") ? self.parts[item] ?? [] : []
        let auxiliaries = self.auxiliaries[item] ?? []
        // libheif decodes an overlay's layers and an iden's source without
        // asking whether they are images, and Debian's build then stops the
        // process on an assertion.
        guard parts.allSatisfy({ Self.imageTypes.contains(types[$0] ?? "") }) else {
            throw .malformed("an image is made of an item that is not an image")
        }
        for part in parts + auxiliaries {
            let more = try work(of: part, decoded: decoded, memo: &memo, path: path + [item])
            total = total.addingReportingOverflow(more).overflow ? Int.max : total + more
        }
        memo[item] = total
        return total
    }

    // MARK: - An item's data

    /// The data of `item` as libheif gathers it from its extents (in the
    /// file, or in `idat`).
    /// - Throws: `malformed` for a piece outside the file or `idat`, or an
    ///   item without a location; `unsupported` for a construction method
    ///   libheif does not read.
    func stream(of item: UInt32) throws(ImageConversionError) -> ItemStream {
        guard let location = locations[item] else { throw .malformed("an image has no data") }
        var pieces: [ItemStream.Piece] = []
        for extent in location.extents {
            let (start, overflow) = location.baseOffset.addingReportingOverflow(extent.offset)
            switch location.method {
            case 0:
                guard !overflow, start <= UInt64(source.size), extent.length <= UInt64(source.size) - start else {
                    throw .malformed("an image's data lies outside the file")
                }
                pieces.append(.file(offset: Int64(start), length: Int64(extent.length)))
            case 1:
                guard let itemData, !overflow, start <= UInt64(itemData.count),
                    extent.length <= UInt64(itemData.count) - start
                else { throw .malformed("an image's data lies outside its item data box") }
                let from = itemData.startIndex + Int(start)
                pieces.append(.memory(itemData[from..<(from + Int(extent.length))]))
            default:
                throw .unsupported("an image's data is built in a way libheif does not read")
            }
        }
        return ItemStream(source: source, pieces: pieces)
    }
}

/// An item's data: the pieces of the file and of `idat` it is made of,
/// read where they lie, after an optional prefix (AV1's configuration OBUs).
struct ItemStream {
    enum Piece {
        case file(offset: Int64, length: Int64)
        case memory(ArraySlice<UInt8>)

        var length: Int64 {
            switch self {
            case .file(_, let length): return length
            case .memory(let bytes): return Int64(bytes.count)
            }
        }
    }

    let source: SourceFile
    var pieces: [Piece]
    var prefix: [UInt8] = []

    var length: Int64 { Int64(prefix.count) + pieces.reduce(0) { $0 + $1.length } }

    /// Up to `count` bytes from `position` (fewer at the end).
    func bytes(at position: Int64, count: Int) throws(ImageConversionError) -> [UInt8] {
        var out: [UInt8] = []
        var at = position
        var wanted = Int64(count)
        for piece in [Piece.memory(prefix[...])] + pieces where wanted > 0 {
            guard at < piece.length else {
                at -= piece.length
                continue
            }
            let take = min(wanted, piece.length - at)
            switch piece {
            case .memory(let bytes):
                let from = bytes.startIndex + Int(at)
                out += bytes[from..<(from + Int(take))]
            case .file(let offset, _):
                let read = try source.bytes(at: offset + at, count: Int(take))
                out += read
                guard read.count == Int(take) else { return out }
            }
            wanted -= take
            at = 0
        }
        return out
    }
}

/// Big-endian numbers from bytes, checked against the end.
enum Bytes {
    static func uint32(_ bytes: ArraySlice<UInt8>, _ offset: Int) -> UInt32 {
        let at = bytes.startIndex + offset
        return UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8
            | UInt32(bytes[at + 3])
    }

    static func uint64(_ bytes: ArraySlice<UInt8>, _ offset: Int) -> UInt64 {
        UInt64(uint32(bytes, offset)) << 32 | UInt64(uint32(bytes, offset + 4))
    }

    static func fourCC(_ bytes: ArraySlice<UInt8>, _ offset: Int) -> String {
        let at = bytes.startIndex + offset
        guard at + 4 <= bytes.endIndex else { return "" }
        return String(decoding: bytes[at..<(at + 4)], as: UTF8.self)
    }

    /// A `size`-byte number (1 to 4) at `offset`.
    /// - Throws: `malformed` when the bytes end first.
    static func read(_ bytes: ArraySlice<UInt8>, at offset: Int, size: Int) throws(ImageConversionError) -> UInt32 {
        var reader = Reader(bytes)
        try reader.skip(offset)
        return UInt32(truncatingIfNeeded: try reader.read(size))
    }

    /// Reads numbers one after another.
    struct Reader {
        let bytes: ArraySlice<UInt8>
        private(set) var position = 0

        init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

        var atEnd: Bool { position >= bytes.count }

        /// A `size`-byte big-endian number (up to 8 bytes).
        mutating func read(_ size: Int) throws(ImageConversionError) -> UInt64 {
            guard size <= 8, bytes.count - position >= size else { throw .malformed("a box is cut short") }
            var value: UInt64 = 0
            for index in 0..<size { value = value << 8 | UInt64(bytes[bytes.startIndex + position + index]) }
            position += size
            return value
        }

        /// A field of `iloc`: 4 or 8 bytes, nothing (zero) for any other size, as libheif reads it.
        mutating func readSized(_ size: Int) throws(ImageConversionError) -> UInt64 {
            size == 4 || size == 8 ? try read(size) : 0
        }

        mutating func skip(_ count: Int) throws(ImageConversionError) {
            guard count >= 0, bytes.count - position >= count else { throw .malformed("a box is cut short") }
            position += count
        }

        mutating func bytes(_ count: Int) throws(ImageConversionError) -> ArraySlice<UInt8> {
            let from = bytes.startIndex + position
            try skip(count)
            return bytes[from..<(from + count)]
        }
    }
}
