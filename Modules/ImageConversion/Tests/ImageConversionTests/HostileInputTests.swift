import Foundation
import ShareKitImageConversion
import ShareKitImageConversionInterface
import ShareKitSystemTesting
import Testing

/// Files that are not what they claim: truncated, with bomb dimensions,
/// with loops in their metadata, damaged at random. Each one gets a clear
/// refusal (or, where the damage leaves a picture, a JPEG), never a crash.
@Suite("hostile photos")
struct HostileInputTests {
    /// Replaces the four bytes after `offset` with a big-endian number.
    static func patch(_ bytes: inout [UInt8], at offset: Int, bigEndian value: UInt32) {
        bytes.replaceSubrange(offset..<(offset + 4), with: QuadrantPicture.bigEndian(value))
    }

    static func index(of marker: String, in bytes: [UInt8]) -> Int? {
        let needle = Array(marker.utf8)
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { Array(bytes[$0..<($0 + needle.count)]) == needle }
    }

    /// A real HEIC, made by heif-enc.
    static func heic(_ conversion: Conversion) throws -> [UInt8] {
        let png = try conversion.write(QuadrantPicture().png(), "base.png")
        let heic = conversion.scratch.file("base.heic")
        try TestTool.run("heif-enc", ["-o", heic, png])
        return try conversion.bytes(heic)
    }

    /// A real lossy WebP, made by cwebp.
    static func webp(_ conversion: Conversion) throws -> [UInt8] {
        let png = try conversion.write(QuadrantPicture().png(), "base.png")
        let webp = conversion.scratch.file("base.webp")
        try TestTool.run("cwebp", ["-quiet", png, "-o", webp])
        return try conversion.bytes(webp)
    }

    @Test(
        "a truncated HEIC is refused as damaged",
        .enabled(if: TestTool.available("heif-enc"), "needs heif-enc (libheif-examples)"))
    func truncatedHEIC() throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        let heic = try Self.heic(conversion)
        let path = try conversion.write(Array(heic.prefix(heic.count * 2 / 3)), "cut.heic")
        #expect {
            try conversion.convert(path)
        } throws: { error in
            guard case .malformed = error as? ImageConversionError else { return false }
            return true
        }
    }

    @Test(
        "a HEIC claiming 60000 × 60000 pixels is refused before it is decoded",
        .enabled(if: TestTool.available("heif-enc"), "needs heif-enc (libheif-examples)"))
    func heicBomb() throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        var heic = try Self.heic(conversion)
        // Every image size property (the coded image's and the cropped one's).
        var from = 0
        while let found = Self.index(of: "ispe", in: Array(heic[from...])) {
            Self.patch(&heic, at: from + found + 8, bigEndian: 60_000)
            Self.patch(&heic, at: from + found + 12, bigEndian: 60_000)
            from += found + 16
        }
        #expect(from > 0, "the HEIC has an image size property")
        let path = try conversion.write(heic, "bomb.heic")
        let limit = JPEGConversionOptions.defaultMaximumPixels
        #expect(throws: ImageConversionError.tooManyPixels(width: 60_000, height: 60_000, limit: limit)) {
            try conversion.convert(path)
        }
        #expect(
            ImageConversionError.tooManyPixels(width: 60_000, height: 60_000, limit: limit).description
                == "60000 × 60000 pixels is more than the 67 megapixels (67108864 pixels) a photo may have to be converted"
        )
    }

    @Test(
        "a WebP claiming 16383 × 16383 pixels is refused before any buffer is made",
        .enabled(if: TestTool.available("cwebp"), "needs cwebp (webp)"))
    func webpBomb() throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        var webp = try Self.webp(conversion)
        let frame = try #require(Self.index(of: "VP8 ", in: webp)) + 8
        // The 14-bit width and height after the frame tag and start code.
        webp.replaceSubrange((frame + 6)..<(frame + 10), with: [0xFF, 0x3F, 0xFF, 0x3F])
        let path = try conversion.write(webp, "bomb.webp")
        #expect(throws: ImageConversionError.tooManyPixels(width: 16_383, height: 16_383, limit: 1 << 26)) {
            try conversion.convert(path)
        }
    }

    @Test(
        "a WebP whose frame is larger than its VP8X canvas is refused by the frame's size before any buffer is made",
        .enabled(if: TestTool.available("cwebp"), "needs cwebp (webp)"))
    func webpFrameLargerThanCanvas() throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        var picture = QuadrantPicture()
        picture.transparentRightHalf = true
        let png = try conversion.write(picture.png(), "alpha.png")
        let made = conversion.scratch.file("alpha.webp")
        try TestTool.run("cwebp", ["-quiet", png, "-o", made])
        var webp = try conversion.bytes(made)
        #expect(Self.index(of: "VP8X", in: webp) != nil, "cwebp wrote an extended file")
        let frame = try #require(Self.index(of: "VP8 ", in: webp)) + 8
        webp.replaceSubrange((frame + 6)..<(frame + 10), with: [0xFF, 0x3F, 0xFF, 0x3F])
        let path = try conversion.write(webp, "frame-bomb.webp")
        #expect(throws: ImageConversionError.tooManyPixels(width: 16_383, height: 16_383, limit: 1 << 26)) {
            try conversion.convert(path)
        }
    }

    @Test("a TIFF whose one tile is larger than the limit is refused before the tile is read, however small the image")
    func tiffTileBomb() throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        let path = try conversion.write(QuadrantPicture().tiledTIFF(tileSide: 512), "tiles.tiff")
        let options = JPEGConversionOptions(maximumPixels: 1 << 16)
        #expect(throws: ImageConversionError.tooManyPixels(width: 512, height: 512, limit: 1 << 16)) {
            try conversion.convert(path, options: options)
        }
        // The same file converts when its tile is within the limit.
        let (result, _) = try conversion.convert(path, options: JPEGConversionOptions(maximumPixels: 1 << 18))
        #expect(result.width == 64 && result.height == 32)
    }

    @Test(
        "an animated WebP is refused: a JPEG has one picture",
        .enabled(if: TestTool.available("img2webp"), "needs img2webp (webp)"))
    func animatedWebP() throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        let first = try conversion.write(QuadrantPicture().png(), "a.png")
        var other = QuadrantPicture()
        other.quadrants.reverse()
        let second = try conversion.write(other.png(), "b.png")
        let path = conversion.scratch.file("moving.webp")
        try TestTool.run("img2webp", ["-loop", "0", first, second, "-o", path])
        #expect {
            try conversion.convert(path)
        } throws: { error in
            guard case .unsupported(let reason) = error as? ImageConversionError else { return false }
            return reason.contains("animated")
        }
    }

    @Test("a TIFF claiming 100000 × 100000 pixels is refused before a strip is read")
    func tiffBomb() throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        let path = try conversion.write(
            QuadrantPicture().tiff(rowsPerStrip: 32, claimedWidth: 100_000, claimedHeight: 100_000), "bomb.tiff")
        #expect(throws: ImageConversionError.tooManyPixels(width: 100_000, height: 100_000, limit: 1 << 26)) {
            try conversion.convert(path)
        }
    }

    @Test("a PNG chunk declaring more bytes than the file holds is refused before libpng allocates them")
    func pngChunkLongerThanFile() throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        var png = QuadrantPicture().png()
        // After the signature (8) and IHDR (25): an unknown ancillary chunk
        // declaring 2 GB, which libpng would allocate before reading it.
        let chunk = QuadrantPicture.bigEndian(0x7E68_7663) + Array("zzAb".utf8) + Array(repeating: 0x41, count: 16)
        png.insert(contentsOf: chunk, at: 33)
        let path = try conversion.write(png, "long-chunk.png")
        #expect {
            try conversion.convert(path)
        } throws: { error in
            guard case .malformed(let why) = error as? ImageConversionError else { return false }
            return why.contains("runs past its end")
        }
    }

    @Test("a TIFF whose strips lie past the end of the file is refused as damaged")
    func truncatedTIFF() throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        var picture = QuadrantPicture()
        picture.width = 128
        picture.height = 128
        var tiff = picture.tiff(rowsPerStrip: 16)
        // The strip offsets follow the pixels and the 6 bytes of BitsPerSample;
        // the third strip is said to start past the end.
        let offsets = 8 + 128 * 128 * 3 + 6
        tiff.replaceSubrange((offsets + 8)..<(offsets + 12), with: QuadrantPicture.littleEndian(0x00F0_0000))
        let path = try conversion.write(tiff, "cut.tiff")
        #expect {
            try conversion.convert(path)
        } throws: { error in
            guard case .malformed = error as? ImageConversionError else { return false }
            return true
        }
    }

    @Test("metadata that points back at itself or past the file is left out; the photo still converts")
    func metadataLoops() throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        let tiff = QuadrantPicture().tiff(extraEntries: [
            (0x8825, 4, 1, UInt32.max),  // GPS: IFD0 itself
            (0x8769, 4, 1, 0xFFFF_FFF0),  // EXIF: past the end
            (0x010F, 2, 0x4000_0000, 16),  // Make: a gigabyte of text
        ])
        let path = try conversion.write(tiff, "loops.tiff")
        let (result, jpeg) = try conversion.convert(path)
        #expect(result.width == 64 && result.height == 32 && !result.removedLocation)
        #expect(try conversion.bytes(jpeg).starts(with: [0xFF, 0xD8]))
    }

    @Test("a file of another type is refused by its first bytes, whatever it is called")
    func notAnImage() throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        let path = try conversion.write(Array("%PDF-1.4\n%%EOF\n".utf8), "holiday.heic")
        #expect(throws: ImageConversionError.unsupported("it is not a HEIF, AVIF, WebP, TIFF, PNG or GIF image")) {
            try conversion.convert(path)
        }
    }

    /// The same file damaged in many ways: cut at 23 lengths, and 60 copies
    /// with one to four bytes overwritten at places spread over the file by
    /// a fixed stride (the same variants on every run, so a failure replays).
    static func variants(of bytes: [UInt8]) -> [[UInt8]] {
        var out: [[UInt8]] = []
        for step in 1..<24 { out.append(Array(bytes.prefix(bytes.count * step / 24))) }
        for variant in 0..<60 {
            var copy = bytes
            for hit in 0...(variant % 4) {
                let at = (variant * 7919 + hit * 104_729 + 13) % copy.count
                copy[at] = UInt8(truncatingIfNeeded: variant * 131 + hit * 29 + 7)
            }
            out.append(copy)
        }
        return out
    }

    /// Converts every variant: each gives a JPEG or an ``ImageConversionError``.
    static func survive(_ bytes: [UInt8], name: String, conversion: Conversion) throws {
        for (index, variant) in variants(of: bytes).enumerated() {
            let path = try conversion.write(variant, "\(index)-\(name)")
            do {
                let (_, jpeg) = try conversion.convert(path, options: JPEGConversionOptions(maximumPixels: 1 << 22))
                #expect(try conversion.bytes(jpeg).starts(with: [0xFF, 0xD8]), "variant \(index) of \(name)")
            } catch let error as ImageConversionError {
                #expect(!error.description.isEmpty)
            }
        }
    }

    @Test("damaged TIFF files never crash the converter")
    func damagedTIFF() throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        try Self.survive(
            QuadrantPicture().tiff(orientation: 6, rowsPerStrip: 4), name: "x.tiff", conversion: conversion)
    }

    @Test(
        "damaged HEIC files never crash the converter",
        .enabled(if: TestTool.available("heif-enc"), "needs heif-enc (libheif-examples)"))
    func damagedHEIC() throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        try Self.survive(try Self.heic(conversion), name: "x.heic", conversion: conversion)
    }

    @Test(
        "damaged WebP files never crash the converter", .enabled(if: TestTool.available("cwebp"), "needs cwebp (webp)"))
    func damagedWebP() throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        try Self.survive(try Self.webp(conversion), name: "x.webp", conversion: conversion)
    }

    @Test("damaged PNG and GIF files never crash the converter")
    func damagedPNGAndGIF() throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        var picture = QuadrantPicture()
        picture.transparentRightHalf = true
        try Self.survive(picture.png(), name: "x.png", conversion: conversion)
        try Self.survive(picture.gif(), name: "x.gif", conversion: conversion)
    }

    @Test(
        "damaged JPEG and PNG files never crash the metadata remover; what it writes starts as the type does",
        .enabled(if: TestTool.available("cjpeg", "exiftool"), "needs cjpeg and exiftool"))
    func damagedForMetadataRemoval() throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        let ppm = try conversion.write(QuadrantPicture().ppm(), "picture.ppm")
        let jpeg = conversion.scratch.file("photo.jpg")
        try TestTool.run("cjpeg", ["-outfile", jpeg, ppm])
        let png = try conversion.write(QuadrantPicture().png(), "photo.png")
        for path in [jpeg, png] {
            try ExifTool.tag(path, orientation: 6)
        }
        for (path, signature) in [(jpeg, [UInt8]([0xFF, 0xD8])), (png, [0x89, 0x50, 0x4E, 0x47])] {
            for (index, variant) in Self.variants(of: try conversion.bytes(path)).enumerated() {
                let damaged = try conversion.write(variant, "\(index)-damaged")
                do {
                    let (_, output) = try conversion.removeMetadata(damaged)
                    #expect(try conversion.bytes(output).starts(with: signature), "variant \(index) of \(path)")
                } catch let error as ImageConversionError {
                    #expect(!error.description.isEmpty)
                }
            }
        }
    }
}
