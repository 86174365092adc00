import CShareKitHeif
import CShareKitImageCodecShim
import ShareKitImageConversionInterface

/// A primary image made of tiles, what phones write (a `grid` of coded
/// HEVC or AV1 images, 512 × 512 each on an iPhone), planned for decoding
/// one band of tiles at a time: libheif 1.15 decodes a grid into one
/// canvas of the whole picture (3 bytes a pixel in RGB) and hands out no
/// handle to a tile. So each tile is decoded by a libheif context of its
/// own that reads the file through a view in which that tile is the
/// primary image and not hidden (two fields of the item table patched, see
/// `sk_heif_source_patch`); libheif decodes and converts it as it would
/// inside the grid, with the tile's own properties.
///
/// Only the plain case is planned, everything else is decoded whole as
/// before: no alpha or other auxiliary image, every tile a coded image
/// without transformations of its own, the grid's transformations only
/// rotations and mirrorings (no cropping), tiles that cover the canvas,
/// and the item table small enough to be read once a tile.
struct HEIFTiledPrimary {
    /// Rows and columns of tiles.
    let rows: Int
    let columns: Int
    /// The canvas, as stored (before the grid's transformations).
    let width: Int
    let height: Int
    /// The tiles' item numbers, row by row.
    let tiles: [UInt32]
    /// The grid's transformations as one orientation.
    let orientation: Orientation
    let primaryField: (offset: Int64, size: Int)
    let flagBytes: [UInt32: (offset: Int64, value: UInt8)]

    /// The most item-table bytes libheif may parse for all the tiles together.
    static let maximumParsingBytes = 256 << 20

    /// The plan for `structure`'s primary image, or nil when it is not a plain grid.
    /// - Throws: `malformed` for a grid description that cannot be read.
    init?(_ structure: HEIFStructure) throws(ImageConversionError) {
        let grid = structure.primary
        guard structure.types[grid] == "grid", (structure.auxiliaries[grid] ?? []).isEmpty,
            let primaryField = structure.primaryField, let tiles = structure.parts[grid], !tiles.isEmpty
        else { return nil }
        let data = try structure.stream(of: grid).bytes(at: 0, count: 12)
        guard data.count >= 8 else { throw .malformed("a grid's description is cut short") }
        let size = data[1] & 1 == 1 ? 4 : 2
        guard data.count >= 4 + 2 * size else { throw .malformed("a grid's description is cut short") }
        rows = Int(data[2]) + 1
        columns = Int(data[3]) + 1
        width = Int(try Bytes.read(data[...], at: 4, size: size))
        height = Int(try Bytes.read(data[...], at: 4 + size, size: size))
        guard tiles.count == rows * columns, width > 0, height > 0,
            structure.metaLength.multipliedReportingOverflow(by: tiles.count).partialValue
                <= Self.maximumParsingBytes
        else { return nil }
        let transformative: Set<String> = ["irot", "imir", "clap"]
        for tile in Set(tiles) {
            guard ["hvc1", "av01"].contains(structure.types[tile] ?? ""), structure.flagBytes[tile] != nil,
                primaryField.size == 4 || tile <= UInt16.max,
                (structure.auxiliaries[tile] ?? []).isEmpty,
                !(structure.associations[tile] ?? []).contains(where: {
                    transformative.contains(structure.properties[$0 - 1].type)
                })
            else { return nil }
        }
        var steps: [(type: String, value: Int)] = []
        for index in structure.associations[grid] ?? [] {
            let property = structure.properties[index - 1]
            switch property.type {
            case "clap": return nil
            case "irot", "imir":
                guard let byte = property.payload.first else { return nil }
                steps.append((property.type, Int(byte & (property.type == "irot" ? 3 : 1))))
            default: break
            }
        }
        guard let orientation = Self.orientation(of: steps) else { return nil }
        self.tiles = tiles
        self.orientation = orientation
        self.primaryField = primaryField
        self.flagBytes = structure.flagBytes
    }

    /// The orientation that does what the steps do one after another, as
    /// libheif 1.15 applies them to a whole image: `irot` turns
    /// counter-clockwise by its value × 90°, `imir` 0 swaps top and bottom,
    /// `imir` 1 left and right (libheif's reading, the reverse of the
    /// standard's "vertical axis" for 0: the tiles must come out as the
    /// images libheif decodes whole). Worked out on a small picture of
    /// labels, so any sequence of steps is one of the eight orientations.
    static func orientation(of steps: [(type: String, value: Int)]) -> Orientation? {
        let stored = [[0, 1, 2], [3, 4, 5]]
        var picture = stored
        for step in steps {
            let (h, w) = (picture.count, picture[0].count)
            if step.type == "irot" {
                for _ in 0..<step.value {
                    let (h, w) = (picture.count, picture[0].count)
                    picture = (0..<w).map { y in (0..<h).map { x in picture[x][w - 1 - y] } }
                }
            } else if step.value == 1 {
                picture = (0..<h).map { y in (0..<w).map { x in picture[y][w - 1 - x] } }
            } else {
                picture = (0..<h).map { y in picture[h - 1 - y] }
            }
        }
        for value in 1...8 {
            let orientation = Orientation(exif: value)
            let size = orientation.outputSize(width: 3, height: 2)
            let turned = (0..<size.height).map { row in
                let walk = orientation.walk(row: row, width: 3, height: 2)
                return (0..<size.width).map { i in stored[walk.y + i * walk.dy][walk.x + i * walk.dx] }
            }
            if turned == picture { return orientation }
        }
        return nil
    }

    /// Whether tiles of `tile` size cover the canvas and each begins inside
    /// it: libheif 1.15 refuses a grid with a tile that begins outside
    /// ("Invalid grid data"), and such a grid is left to it for that error.
    func isCovered(byTiles tile: (width: Int, height: Int)) -> Bool {
        tile.width * columns >= width && tile.height * rows >= height && tile.width * (columns - 1) < width
            && tile.height * (rows - 1) < height
    }

    /// The patches that make `tile` the file's visible primary image.
    func patches(for tile: UInt32) -> [(offset: Int64, bytes: [UInt8])] {
        let number =
            primaryField.size == 4
            ? [UInt8(tile >> 24 & 0xFF), UInt8(tile >> 16 & 0xFF), UInt8(tile >> 8 & 0xFF), UInt8(tile & 0xFF)]
            : [UInt8(tile >> 8 & 0xFF), UInt8(tile & 0xFF)]
        var patches = [(primaryField.offset, number)]
        if let flags = flagBytes[tile] { patches.append((flags.offset, [flags.value & ~1])) }
        return patches
    }
}
