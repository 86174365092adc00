import Foundation
import ShareKitImageConversionInterface
import ShareKitSystemTesting
import Testing

@testable import ShareKitImageConversion

/// The decoders that cannot hand out rows in the output's order decode a
/// band of rows or columns at a time (a pass over the file each): a
/// converter with a tiny band budget must make the same picture, in every
/// orientation, as one that takes the picture in one piece (for TIFF see
/// `ConversionTests.tiffOrientations`).
@Suite("photos decoded band by band")
struct BandTests {
    /// The largest difference of one sample between two decoded JPEGs of the same size.
    static func largestDifference(_ a: DecodedJPEG, _ b: DecodedJPEG) -> Int {
        zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    @Test(
        "a WebP decoded in bands of rows or columns (libwebp's cropping) makes the picture of one decoded whole, in all eight orientations, lossy and lossless",
        .enabled(
            if: ConversionTests.webpTools && ConversionTests.metadataTools,
            Comment(rawValue: ConversionTests.missingWebP + "; " + ConversionTests.missingExifTool)),
        arguments: 1...8, [false, true])
    func webpBands(orientation: Int, lossless: Bool) throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        let picture = QuadrantPicture()
        let webp = try ConversionTests.taggedWebP(
            picture, orientation: orientation, lossless: lossless, in: conversion)
        // 6 rows of 64 RGB pixels, or 3 columns of 32: 6 or 22 bands.
        let (banded, bandedPath) = try conversion.convert(webp, bandBytes: 6 * 64 * 3)
        let (whole, wholePath) = try conversion.convert(webp)
        #expect(banded == whole)
        try ConversionTests.expectPicture(
            bandedPath, width: banded.width, height: banded.height, picture.upright(orientation: orientation),
            in: conversion)
        let difference = Self.largestDifference(
            try DecodedJPEG(path: bandedPath, scratch: conversion.scratch),
            try DecodedJPEG(path: wholePath, scratch: conversion.scratch))
        #expect(difference <= 8, "the banded JPEG differs by up to \(difference) in a sample")
    }
}

/// A HEIF grid, as phones write it, is decoded a tile at a time; libheif's
/// own decoding of the whole canvas is the reference.
@Suite("HEIF grids decoded a tile at a time")
struct TileTests {
    /// The grid's transformations: `irot` (0 to 3) then `imir` (none, 0, 1).
    static let transformations: [(turn: Int, mirror: Int?)] = (0...3).flatMap { turn in
        [nil, 0, 1].map { (turn, $0) }
    }

    @Test(
        "grids of 3 × 2 and 1 × 2 tiles cut at the canvas's edges make the same JPEG tile by tile as libheif's whole canvas, under every rotation and mirroring",
        .enabled(if: DerivedImageTests.tools, Comment(rawValue: DerivedImageTests.missing)), arguments: [false, true])
    func gridTileByTile(avif: Bool) throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        let quadrants = try DerivedImageTests.picture(conversion, avif: avif)
        let solid = try DerivedImageTests.picture(
            conversion, avif: avif, quadrants: Array(repeating: .white, count: 4))
        // 3 × 2 tiles on 150 × 100; and one column of two tiles on 50 × 100,
        // whose bands are single tiles emitted as they are decoded.
        let grids: [(columns: Int, width: Int, tiles: [Int])] = [(3, 150, [1, 2, 1, 2, 1, 1]), (1, 50, [1, 2])]
        for (grid, (turn, mirror)) in grids.flatMap({ grid in Self.transformations.map { (grid, $0) } }) {
            var file = TestHEIF(brand: avif ? "avif" : "heic")
            file.add(quadrants, hidden: true)
            file.add(solid, hidden: true)
            file.primary = file.addGrid(
                columns: grid.columns, rows: 2, tiles: grid.tiles, width: grid.width, height: 100)
            if turn > 0 { file.items[file.primary - 1].properties.append(TestHEIF.box("irot", [UInt8(turn)])) }
            if let mirror { file.items[file.primary - 1].properties.append(TestHEIF.box("imir", [UInt8(mirror)])) }
            let name = "grid-\(grid.columns)-\(turn)-\(mirror.map(String.init) ?? "none").heic"
            let path = try conversion.write(file.bytes(), name)

            let source = open(path, O_RDONLY | O_CLOEXEC)
            defer { close(source) }
            let structure = try HEIFStructure.check(try SourceFile(fd: source), maximumPixels: 1 << 20)
            let plan = try structure.flatMap { try HEIFTiledPrimary($0) }
            #expect(plan?.tiles.map(Int.init) == grid.tiles, "\(name) is not decoded tile by tile")

            let (tiled, tiledPath) = try conversion.convert(path)
            let (whole, wholePath) = try conversion.convert(path, decodesTiles: false)
            let turned = turn % 2 == 1
            #expect(tiled == whole && tiled.width == (turned ? 100 : grid.width), "\(name): \(tiled) against \(whole)")
            #expect(try conversion.bytes(tiledPath) == conversion.bytes(wholePath), "\(name)")
        }
    }

    @Test(
        "a grid whose last column of tiles begins outside its canvas is refused as libheif refuses it decoded whole",
        .enabled(if: DerivedImageTests.tools, Comment(rawValue: DerivedImageTests.missing)))
    func tileOutsideTheCanvas() throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        var file = TestHEIF(brand: "heic")
        let tile = file.add(try DerivedImageTests.picture(conversion, avif: false), hidden: true)
        // Three 64-pixel columns on a canvas 120 wide: the third begins at 128.
        file.primary = file.addGrid(columns: 3, rows: 1, tiles: [tile, tile, tile], width: 120, height: 64)
        let path = try conversion.write(file.bytes(), "outside.heic")
        var errors: [ImageConversionError] = []
        for decodesTiles in [true, false] {
            do {
                _ = try conversion.convert(path, decodesTiles: decodesTiles)
            } catch {
                errors.append(error)
            }
        }
        #expect(errors.count == 2 && errors[0] == errors[1], "\(errors)")
    }

    @Test(
        "the orientation of a grid's rotation and mirroring is worked out as libheif 1.15 applies them (imir 0 swaps top and bottom)",
        arguments: [
            ([("irot", 1)], 8), ([("irot", 2)], 3), ([("irot", 3)], 6), ([("imir", 0)], 4), ([("imir", 1)], 2),
            ([("irot", 1), ("imir", 0)], 5), ([("irot", 1), ("imir", 1)], 7), ([], 1),
        ] as [([(String, Int)], Int)])
    func orientationOfSteps(steps: [(String, Int)], expected: Int) {
        #expect(HEIFTiledPrimary.orientation(of: steps.map { (type: $0.0, value: $0.1) })?.value == expected)
    }
}
