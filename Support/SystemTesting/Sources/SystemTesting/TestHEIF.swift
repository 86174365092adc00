// HEIF files written box by box (ISO/IEC 23008-12), for the structures
// heif-enc does not make on request: images made of tiles (`grid`) or of
// layers (`iovl`), thumbnails and auxiliary images, and sizes that lie. The
// coded pictures come from real files made by heif-enc; only the boxes
// around them are written here.
import Foundation

/// One coded picture (HEVC or AV1) taken out of a HEIF file: the primary
/// image of a file heif-enc made.
public struct CodedHEIFPicture: Sendable {
    /// `hvc1` or `av01`.
    public var itemType: String
    /// The decoder configuration property, a whole box (`hvcC` or `av1C`).
    public var configuration: [UInt8]
    /// The coded data.
    public var data: [UInt8]
    /// The size its `ispe` says.
    public var width: Int
    /// The size its `ispe` says.
    public var height: Int

    /// Reads the first coded item (HEVC or AV1) of `file`, a file heif-enc
    /// made: its data in one extent of the file. (heif-enc stores a picture
    /// whose size the encoder rounds up as a 1 × 1 grid that crops it; the
    /// coded item is then the tile, at the rounded size.)
    /// - Throws: ``TestPictureError`` when the file is not like that.
    public init(heifFile file: [UInt8]) throws {
        let top = try TestBoxes.children(file[...])
        guard let meta = top.first(where: { $0.type == "meta" }) else { throw TestPictureError("no meta box") }
        let boxes = try TestBoxes.children(meta.payload.dropFirst(4))
        func box(_ type: String) throws -> ArraySlice<UInt8> {
            guard let found = boxes.first(where: { $0.type == type }) else { throw TestPictureError("no \(type) box") }
            return found.payload
        }
        // The item: infe version 2 (id, protection, type).
        let iinf = try box("iinf")
        var found: (id: Int, type: String)?
        for infe in try TestBoxes.children(iinf.dropFirst(iinf.first == 0 ? 6 : 8)) where infe.type == "infe" {
            let type = String(decoding: infe.payload.dropFirst(8).prefix(4), as: UTF8.self)
            if found == nil, infe.payload.first == 2, type == "hvc1" || type == "av01" {
                found = (TestBoxes.uint16(infe.payload, 4), type)
            }
        }
        guard let (item, type) = found else { throw TestPictureError("no coded item") }
        itemType = type
        // Properties: ipco's children, ipma's associations (version 0, 8-bit indices).
        let iprp = try TestBoxes.children(try box("iprp"))
        guard let ipco = iprp.first(where: { $0.type == "ipco" }), let ipma = iprp.first(where: { $0.type == "ipma" }),
            ipma.payload.prefix(4).elementsEqual([0, 0, 0, 0])
        else { throw TestPictureError("no ipco or ipma of version 0") }
        let properties = try TestBoxes.children(ipco.payload)
        var configuration: [UInt8]?
        var size: (Int, Int)?
        var at = 8
        for _ in 0..<TestBoxes.uint32(ipma.payload, 4) {
            let id = TestBoxes.uint16(ipma.payload, at)
            let count = Int(ipma.payload[ipma.payload.startIndex + at + 2])
            let indices = (0..<count).map { Int(ipma.payload[ipma.payload.startIndex + at + 3 + $0] & 0x7F) }
            at += 3 + count
            guard id == item else { continue }
            for index in indices where index > 0 {
                let property = properties[index - 1]
                if property.type == "hvcC" || property.type == "av1C" { configuration = property.whole }
                if property.type == "ispe" {
                    size = (Int(TestBoxes.uint32(property.payload, 4)), Int(TestBoxes.uint32(property.payload, 8)))
                }
            }
        }
        guard let configuration, let size else { throw TestPictureError("no configuration or ispe") }
        self.configuration = configuration
        (width, height) = size
        // Location: iloc version 0 or 1, 4-byte offsets and lengths, a base offset of 0 or 4 bytes.
        let iloc = try box("iloc")
        let version = iloc[iloc.startIndex]
        let sizes = iloc[iloc.startIndex + 5]
        guard version <= 1, iloc[iloc.startIndex + 4] == 0x44, sizes == 0 || sizes == 0x40 else {
            throw TestPictureError("an iloc box of another layout")
        }
        var position = 8
        var data: [UInt8]?
        for _ in 0..<TestBoxes.uint16(iloc, 6) {
            let id = TestBoxes.uint16(iloc, position)
            let method = version == 1 ? TestBoxes.uint16(iloc, position + 2) & 0xF : 0
            position += 2 + (version == 1 ? 2 : 0) + 2
            let base = sizes == 0x40 ? Int(TestBoxes.uint32(iloc, position)) : 0
            position += sizes == 0x40 ? 4 : 0
            let extents = TestBoxes.uint16(iloc, position)
            position += 2
            for _ in 0..<extents {
                let offset = base + Int(TestBoxes.uint32(iloc, position))
                let length = Int(TestBoxes.uint32(iloc, position + 4))
                position += 8
                if id == item, method == 0, extents == 1 { data = Array(file[offset..<(offset + length)]) }
            }
        }
        guard let data else { throw TestPictureError("the coded item has no data in one extent of the file") }
        self.data = data
    }
}

/// A HEIF file to be written: items with their properties, data and
/// references, numbered from 1 in the order they are added.
public struct TestHEIF: Sendable {
    /// One item.
    public struct Item: Sendable {
        /// The item type (`hvc1`, `av01`, `grid`, `iovl`).
        public var type: String
        /// Hidden (tiles, auxiliary images): not shown as an image of its own.
        public var hidden: Bool
        /// Property boxes, whole (`hvcC`, `ispe`, `auxC`).
        public var properties: [[UInt8]]
        /// The item's data.
        public var data: [UInt8]
        /// The data is in the `idat` box (derived images), not in `mdat`.
        public var inItemData: Bool
    }

    /// The items; item `n` is `items[n - 1]`.
    public var items: [Item] = []
    /// References: type (`dimg`, `thmb`, `auxl`), from, to.
    public var references: [(type: String, from: Int, to: [Int])] = []
    /// The primary item.
    public var primary = 1
    /// The major brand (`heic` or `avif`).
    public var brand: String

    /// An empty file of `brand`.
    public init(brand: String) { self.brand = brand }

    /// Adds an item; returns its number.
    @discardableResult
    public mutating func add(
        _ type: String, hidden: Bool = false, properties: [[UInt8]], data: [UInt8], inItemData: Bool = false
    ) -> Int {
        items.append(Item(type: type, hidden: hidden, properties: properties, data: data, inItemData: inItemData))
        return items.count
    }

    /// Adds `picture` as a coded item whose `ispe` says `claimed` (its own size by default).
    @discardableResult
    public mutating func add(_ picture: CodedHEIFPicture, hidden: Bool = false, claimed: (Int, Int)? = nil) -> Int {
        let size = claimed ?? (picture.width, picture.height)
        return add(
            picture.itemType, hidden: hidden,
            properties: [picture.configuration, Self.ispe(width: size.0, height: size.1)], data: picture.data)
    }

    /// Adds a grid of `columns` × `rows` tiles (`tiles`, left to right, top
    /// to bottom) whose output is `width` × `height`, its `ispe` saying
    /// `claimed` (the output size by default). 32-bit fields when needed.
    @discardableResult
    public mutating func addGrid(
        columns: Int, rows: Int, tiles: [Int], width: Int, height: Int, claimed: (Int, Int)? = nil, hidden: Bool = false
    ) -> Int {
        let wide = width > 0xFFFF || height > 0xFFFF
        var data: [UInt8] = [0, wide ? 1 : 0, UInt8(rows - 1), UInt8(columns - 1)]
        data += wide ? Self.uint32(width) + Self.uint32(height) : Self.uint16(width) + Self.uint16(height)
        let size = claimed ?? (width, height)
        let id = add(
            "grid", hidden: hidden, properties: [Self.ispe(width: size.0, height: size.1)], data: data,
            inItemData: true)
        references.append(("dimg", id, tiles))
        return id
    }

    /// Adds an overlay of `layers` at `offsets` on a white canvas of
    /// `width` × `height`, its `ispe` saying `claimed` (the canvas size by default).
    @discardableResult
    public mutating func addOverlay(
        layers: [Int], offsets: [(Int, Int)], width: Int, height: Int, claimed: (Int, Int)? = nil
    ) -> Int {
        let wide = width > 0xFFFF || height > 0xFFFF
        let field: (Int) -> [UInt8] = { wide ? Self.uint32($0) : Self.uint16($0) }
        var data: [UInt8] = [0, wide ? 1 : 0] + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        data += field(width) + field(height)
        for (x, y) in offsets { data += field(x) + field(y) }
        let size = claimed ?? (width, height)
        let id = add(
            "iovl", properties: [Self.ispe(width: size.0, height: size.1)], data: data, inItemData: true)
        references.append(("dimg", id, layers))
        return id
    }

    /// The file's bytes: `ftyp`, `meta`, `mdat`.
    public func bytes() -> [UInt8] {
        let compatible = brand == "avif" ? ["mif1", "avif", "miaf"] : ["mif1", "heic"]
        let ftyp = Self.box("ftyp", Array(brand.utf8) + [0, 0, 0, 0] + compatible.flatMap { Array($0.utf8) })
        // The meta box's size does not depend on the offsets it holds.
        let draft = meta(mdatStart: 0)
        return ftyp + meta(mdatStart: ftyp.count + draft.count + 8)
            + Self.box("mdat", items.filter { !$0.inItemData }.flatMap(\.data))
    }

    private func meta(mdatStart: Int) -> [UInt8] {
        var properties: [[UInt8]] = []
        var associations: [UInt8] = []
        for (index, item) in items.enumerated() {
            associations += Self.uint16(index + 1) + [UInt8(item.properties.count)]
            for property in item.properties {
                properties.append(property)
                let essential: UInt8 = property.dropFirst(4).starts(with: Array("ispe".utf8)) ? 0 : 0x80
                associations.append(essential | UInt8(properties.count))
            }
        }
        var infe: [UInt8] = []
        var iloc: [UInt8] = []
        var idat: [UInt8] = []
        var mdatOffset = mdatStart
        for (index, item) in items.enumerated() {
            infe += Self.fullBox(
                "infe", version: 2, flags: item.hidden ? 1 : 0,
                Self.uint16(index + 1) + [0, 0] + Array(item.type.utf8) + [0])
            let offset: Int
            if item.inItemData {
                offset = idat.count
                idat += item.data
            } else {
                offset = mdatOffset
                mdatOffset += item.data.count
            }
            iloc += Self.uint16(index + 1) + [0, item.inItemData ? 1 : 0] + [0, 0] + Self.uint16(1)
            iloc += Self.uint32(offset) + Self.uint32(item.data.count)
        }
        var iref: [UInt8] = []
        for reference in references {
            iref += Self.box(
                reference.type,
                Self.uint16(reference.from) + Self.uint16(reference.to.count) + reference.to.flatMap(Self.uint16))
        }
        let handler = Self.fullBox("hdlr", [0, 0, 0, 0] + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
        var body = handler + Self.fullBox("pitm", Self.uint16(primary))
        body += Self.fullBox("iinf", Self.uint16(items.count) + infe)
        if !references.isEmpty { body += Self.fullBox("iref", iref) }
        body += Self.box(
            "iprp",
            Self.box("ipco", properties.flatMap { $0 })
                + Self.fullBox("ipma", Self.uint32(items.count) + associations))
        body += Self.fullBox("iloc", version: 1, [0x44, 0x00] + Self.uint16(items.count) + iloc)
        if !idat.isEmpty { body += Self.box("idat", idat) }
        return Self.fullBox("meta", body)
    }

    /// An `ispe` property.
    public static func ispe(width: Int, height: Int) -> [UInt8] {
        fullBox("ispe", uint32(width) + uint32(height))
    }

    /// An `auxC` property naming the alpha plane of MIAF.
    public static var alphaAuxiliary: [UInt8] {
        fullBox("auxC", Array("urn:mpeg:mpegB:cicp:systems:auxiliary:alpha".utf8) + [0])
    }

    /// A box: its 32-bit size, type and payload.
    public static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        uint32(8 + payload.count) + Array(type.utf8) + payload
    }

    /// A full box: a box whose payload starts with a version and 24 bits of flags.
    public static func fullBox(_ type: String, version: UInt8 = 0, flags: UInt32 = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version, UInt8((flags >> 16) & 0xFF), UInt8((flags >> 8) & 0xFF), UInt8(flags & 0xFF)] + payload)
    }

    static func uint16(_ value: Int) -> [UInt8] { [UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)] }
    static func uint32(_ value: Int) -> [UInt8] { QuadrantPicture.bigEndian(UInt32(truncatingIfNeeded: value)) }
}

/// Reading boxes back, for ``CodedHEIFPicture``.
enum TestBoxes {
    struct Box {
        let type: String
        let payload: ArraySlice<UInt8>
        let whole: [UInt8]
    }

    /// The boxes one after another in `bytes` (32-bit sizes only).
    static func children(_ bytes: ArraySlice<UInt8>) throws -> [Box] {
        var out: [Box] = []
        var at = bytes.startIndex
        while at + 8 <= bytes.endIndex {
            let size = Int(uint32(bytes, at - bytes.startIndex))
            guard size >= 8, at + size <= bytes.endIndex else { throw TestPictureError("a box runs past its parent") }
            let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
            out.append(Box(type: type, payload: bytes[(at + 8)..<(at + size)], whole: Array(bytes[at..<(at + size)])))
            at += size
        }
        return out
    }

    static func uint16(_ bytes: ArraySlice<UInt8>, _ offset: Int) -> Int {
        let at = bytes.startIndex + offset
        return Int(bytes[at]) << 8 | Int(bytes[at + 1])
    }

    static func uint32(_ bytes: ArraySlice<UInt8>, _ offset: Int) -> UInt32 {
        let at = bytes.startIndex + offset
        return UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8
            | UInt32(bytes[at + 3])
    }
}

extension QuadrantPicture {
    /// The side of the square tiles of ``heicGrid(to:)``: the largest
    /// divisor of both half sides up to 512 (an iPhone's tile), so that
    /// every tile lies in one quadrant; 8064 × 6048 (48 MP) gets 504.
    public var gridTileSide: Int {
        var (a, b) = (width / 2, height / 2)
        while b != 0 { (a, b) = (b, a % b) }
        return (1...max(1, min(512, a))).last { a % $0 == 0 } ?? 1
    }

    /// Writes this picture to `path` as a phone does, a HEIC grid of square
    /// tiles (``gridTileSide``): four one-colour tiles coded by heif-enc,
    /// each used for every tile of its quadrant. A 48-megapixel photo takes
    /// a second, where heif-enc coding it as one image takes about a
    /// minute. The width and height must be even, and the tile side at
    /// least 64 (heif-enc codes a smaller picture at a larger size).
    /// - Throws: ``TestPictureError`` when heif-enc is missing or fails, or
    ///   codes a tile at another size.
    public func heicGrid(to path: String) throws {
        let side = gridTileSide
        var file = TestHEIF(brand: "heic")
        var tiles: [Int] = []
        for (index, colour) in quadrants.enumerated() {
            var tile = QuadrantPicture()
            (tile.width, tile.height) = (side, side)
            tile.quadrants = Array(repeating: colour, count: 4)
            let png = "\(path).tile\(index).png"
            let coded = "\(path).tile\(index).heic"
            defer {
                try? FileManager.default.removeItem(atPath: png)
                try? FileManager.default.removeItem(atPath: coded)
            }
            try Data(tile.png()).write(to: URL(fileURLWithPath: png))
            try TestTool.run("heif-enc", ["-q", "80", "-o", coded, png])
            let picture = try CodedHEIFPicture(heifFile: [UInt8](Data(contentsOf: URL(fileURLWithPath: coded))))
            guard picture.width == side, picture.height == side else {
                throw TestPictureError("heif-enc coded a \(side)-pixel tile at \(picture.width) × \(picture.height)")
            }
            tiles.append(file.add(picture, hidden: true))
        }
        let (columns, rows) = ((width + side - 1) / side, (height + side - 1) / side)
        let grid = (0..<rows).flatMap { row in
            (0..<columns).map { column in
                tiles[(row * side < height / 2 ? 0 : 2) + (column * side < width / 2 ? 0 : 1)]
            }
        }
        file.primary = file.addGrid(columns: columns, rows: rows, tiles: grid, width: width, height: height)
        try Data(file.bytes()).write(to: URL(fileURLWithPath: path))
    }
}
