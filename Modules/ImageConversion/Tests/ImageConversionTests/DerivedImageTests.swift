import Foundation
import ShareKitImageConversion
import ShareKitImageConversionInterface
import ShareKitSystemTesting
import Testing

/// HEIC and AVIF photos made of tiles (`grid`) or layers (`iovl`), with
/// thumbnails and alpha images: the coded pictures are heif-enc's, the boxes
/// around them are written by `TestHEIF`, so their sizes can lie. The size
/// of the image as decoded (the grid's or overlay's canvas, the coded
/// stream's own size) is what is checked against the limit, for every item
/// in the file, before anything is decoded.
@Suite("photos made of tiles and layers")
struct DerivedImageTests {
    static let tools = TestTool.available("heif-enc", "djpeg")
    static let missing = "needs heif-enc (libheif-examples) and djpeg (libjpeg-turbo-progs)"
    static let limit = JPEGConversionOptions.defaultMaximumPixels

    /// A 64 × 64 coded picture made by heif-enc: HEVC, or AV1 when `avif`.
    static func picture(
        _ conversion: Conversion, avif: Bool, quadrants: [Colour] = [.red, .green, .blue, .yellow]
    ) throws -> CodedHEIFPicture {
        var picture = QuadrantPicture()
        picture.height = 64
        picture.quadrants = quadrants
        let name = "tile-\(quadrants.map(\.description).joined())".filter { $0.isLetter || $0.isNumber }
        let png = try conversion.write(picture.png(), name + ".png")
        let file = conversion.scratch.file(name + (avif ? ".avif" : ".heic"))
        try TestTool.run("heif-enc", (avif ? ["-A"] : []) + ["-o", file, png])
        let coded = try CodedHEIFPicture(heifFile: try conversion.bytes(file))
        #expect(coded.width == 64 && coded.height == 64)
        return coded
    }

    /// A file whose primary image is a 2 × 2 grid of one tile, four times,
    /// whose grid says `side` × `side` while its `ispe` says 128 × 128.
    static func gridBomb(_ tile: CodedHEIFPicture, side: Int) -> TestHEIF {
        var file = TestHEIF(brand: tile.itemType == "av01" ? "avif" : "heic")
        let id = file.add(tile, hidden: true)
        file.primary = file.addGrid(
            columns: 2, rows: 2, tiles: [id, id, id, id], width: side, height: side, claimed: (128, 128))
        return file
    }

    static func refusedAsTooLarge(_ side: Int, limit: Int = limit) -> (any Error) -> Bool {
        { ($0 as? ImageConversionError) == .tooManyPixels(width: side, height: side, limit: limit) }
    }

    @Test(
        "a grid of four copies of one 64 × 64 tile claiming 20000 or 40000 pixels a side is refused before it is decoded",
        .enabled(if: tools, Comment(rawValue: missing)), arguments: [(20_000, false), (40_000, false), (20_000, true)])
    func gridBomb(side: Int, avif: Bool) throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        let path = try conversion.write(
            Self.gridBomb(try Self.picture(conversion, avif: avif), side: side).bytes(), "grid.heic")
        #expect(throws: ImageConversionError.tooManyPixels(width: side, height: side, limit: Self.limit)) {
            try conversion.convert(path)
        }
    }

    @Test(
        "an overlay of one 64 × 64 layer on a 20000 × 20000 canvas is refused before it is decoded",
        .enabled(if: tools, Comment(rawValue: missing)))
    func overlayBomb() throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        var file = TestHEIF(brand: "heic")
        let layer = file.add(try Self.picture(conversion, avif: false), hidden: true)
        file.primary = file.addOverlay(
            layers: [layer], offsets: [(0, 0)], width: 20_000, height: 20_000, claimed: (64, 64))
        let path = try conversion.write(file.bytes(), "overlay.heic")
        #expect(throws: ImageConversionError.tooManyPixels(width: 20_000, height: 20_000, limit: Self.limit)) {
            try conversion.convert(path)
        }
    }

    @Test(
        "a photo whose thumbnail or alpha image is a 20000 × 20000 grid is refused, though its primary image is small",
        .enabled(if: tools, Comment(rawValue: missing)), arguments: ["thmb", "auxl"])
    func bombBesideThePhoto(reference: String) throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        let tile = try Self.picture(conversion, avif: false)
        var file = TestHEIF(brand: "heic")
        file.primary = file.add(tile)
        let hidden = file.add(tile, hidden: true)
        let grid = file.addGrid(
            columns: 1, rows: 1, tiles: [hidden], width: 20_000, height: 20_000, claimed: (64, 64),
            hidden: reference == "auxl")
        if reference == "auxl" { file.items[grid - 1].properties.append(TestHEIF.alphaAuxiliary) }
        file.references.append((reference, grid, [file.primary]))
        let path = try conversion.write(file.bytes(), "\(reference).heic")
        #expect(throws: ImageConversionError.tooManyPixels(width: 20_000, height: 20_000, limit: Self.limit)) {
            try conversion.convert(path)
        }
    }

    @Test(
        "a coded picture larger than its ispe says is measured by its own stream: HEVC's parameter set, AV1's sequence header",
        .enabled(if: tools, Comment(rawValue: missing)), arguments: [false, true])
    func streamLargerThanItsBox(avif: Bool) throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        var file = TestHEIF(brand: avif ? "avif" : "heic")
        file.primary = file.add(try Self.picture(conversion, avif: avif), claimed: (8, 8))
        let path = try conversion.write(file.bytes(), "small-box")
        // 8 × 8 = 64 pixels is within 1024; the stream's 64 × 64 is not.
        let options = JPEGConversionOptions(maximumPixels: 1024)
        #expect(throws: ImageConversionError.tooManyPixels(width: 64, height: 64, limit: 1024)) {
            try conversion.convert(path, options: options)
        }
    }

    @Test(
        "a grid of 256 copies of a tile is refused: the tiles together decode to more than four times the limit",
        .enabled(if: tools, Comment(rawValue: missing)))
    func repeatedTiles() throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        var file = TestHEIF(brand: "heic")
        // Each tile claims 1 × 1 pixel, so all 256 lie within the canvas,
        // 128 × 128, which is within the limit; what the 256 decode is not.
        let tile = file.add(try Self.picture(conversion, avif: false), hidden: true, claimed: (1, 1))
        file.primary = file.addGrid(
            columns: 16, rows: 16, tiles: Array(repeating: tile, count: 256), width: 128, height: 128)
        let path = try conversion.write(file.bytes(), "repeated.heic")
        #expect {
            try conversion.convert(path, options: JPEGConversionOptions(maximumPixels: 128 * 128))
        } throws: { error in
            guard case .unsupported(let reason) = error as? ImageConversionError else { return false }
            return reason.contains("1064960 pixels in all") && reason.contains("65536")
        }
    }

    @Test(
        "a grid made of itself, directly or through another grid, is refused as damaged, not followed forever",
        .enabled(if: tools, Comment(rawValue: missing)), arguments: [false, true])
    func gridLoop(throughAnother: Bool) throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        var file = TestHEIF(brand: "heic")
        let tile = file.add(try Self.picture(conversion, avif: false), hidden: true)
        let first = file.addGrid(columns: 2, rows: 1, tiles: [tile, tile], width: 128, height: 64)
        let second = file.addGrid(columns: 2, rows: 1, tiles: [tile, first], width: 128, height: 64, hidden: true)
        file.references[0].to[1] = throughAnother ? second : first
        file.primary = first
        let path = try conversion.write(file.bytes(), "loop.heic")
        // libheif finds the loop too; the converter's own reading of the
        // structure must not follow it first.
        #expect {
            try conversion.convert(path)
        } throws: { error in
            guard case .malformed = error as? ImageConversionError else { return false }
            return true
        }
    }

    /// The input fuzz/PhotoFile found (seeded with an overlay): an overlay
    /// whose layer's item type was changed to `hvc2`, which libheif 1.15
    /// decodes without asking whether it is an image; Debian's build then
    /// ends the process on `Assertion 'imginfo' failed` (heif-info too).
    static let overlayOfNonImage: [UInt8] = {
        let hex = [
            "000000186674797068656963000000006d69663168656963000001a66d657461000000000000002168646c720000000000000000",
            "70696374000000000000000000000000000000000e7069746d0000000000020000003869696e6600000000000200000015696e66",
            "650200000100010000687663320000000015696e66650200000000020000696f766c000000001c69726566000000000000001064",
            "696d670002000200010001000000c969707270000000a86970636f00000078687663430103700000000000000000001ef000fcfd",
            "f8f800000f03200001001840010c01ffff03700000030090000003000003001eba0240210001002b420101037000000300900000",
            "03000003001ea020810596ea4929ae6e04040c08000003000800000300084022000100074401c172b02240000000146973706500",
            "000000000000400000004000000014697370650000000000000080000000800000001969706d6100000000000000020001028102",
            "0002010300000030696c6f6301000000440000020001000000000001000001c60000003d00020001000000010000000000000016",
            "0000001e696461740000ffffffffffffffff008000800000000000400040000000456d646174000000392801af1380e6a870d3ff",
            "fe26947ffd3ae787e9e5bd12b7e3454ffef88dfff3053023ffe919011fb4afaffd88e007b1f921e6ff5104a7d31c1c",
        ].joined()
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }()

    @Test("an overlay made of an item that is not an image is refused as damaged; libheif would end the process")
    func overlayOfNonImage() throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        let path = try conversion.write(Self.overlayOfNonImage, "overlay-of-hvc2.heic")
        #expect(throws: ImageConversionError.malformed("an image is made of an item that is not an image")) {
            try conversion.convert(path)
        }
    }

    @Test(
        "heif-enc's own photos with an alpha image and a thumbnail still convert, HEIC and AVIF",
        .enabled(if: tools, Comment(rawValue: missing)), arguments: [false, true])
    func photoWithAlphaAndThumbnail(avif: Bool) throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        var picture = QuadrantPicture()
        picture.transparentRightHalf = true
        let png = try conversion.write(picture.png(), "alpha.png")
        let path = conversion.scratch.file(avif ? "alpha.avif" : "alpha.heic")
        try TestTool.run("heif-enc", (avif ? ["-A"] : []) + ["-t", "16", "-o", path, png])
        let (result, jpeg) = try conversion.convert(path)
        #expect(result.width == 64 && result.height == 32)
        try ConversionTests.expectPicture(jpeg, width: 64, height: 32, [.red, .white, .blue, .white], in: conversion)
    }

    @Test(
        "a real grid of four tiles and a real overlay still convert: the JPEG shows the tiles in place",
        .enabled(if: tools, Comment(rawValue: missing)), arguments: [false, true])
    func honestGridAndOverlay(avif: Bool) throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        let colours: [Colour] = [.red, .green, .blue, .yellow]
        var file = TestHEIF(brand: avif ? "avif" : "heic")
        var tiles: [Int] = []
        for colour in colours {
            tiles.append(
                file.add(
                    try Self.picture(conversion, avif: avif, quadrants: Array(repeating: colour, count: 4)),
                    hidden: true))
        }
        file.primary = file.addGrid(columns: 2, rows: 2, tiles: tiles, width: 128, height: 128)
        let grid = try conversion.write(file.bytes(), "grid.heic")
        let (result, jpeg) = try conversion.convert(grid)
        #expect(result.width == 128 && result.height == 128)
        try ConversionTests.expectPicture(jpeg, width: 128, height: 128, colours, in: conversion)

        file.references.removeAll()
        file.items.removeLast()
        file.primary = file.addOverlay(layers: [tiles[0]], offsets: [(64, 64)], width: 128, height: 128)
        let overlay = try conversion.write(file.bytes(), "overlay.heic")
        let (_, layered) = try conversion.convert(overlay)
        try ConversionTests.expectPicture(
            layered, width: 128, height: 128, [.white, .white, .white, .red], in: conversion)
    }
}
