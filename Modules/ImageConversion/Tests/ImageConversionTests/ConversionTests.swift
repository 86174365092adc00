import Foundation
import ShareKitImageConversion
import ShareKitImageConversionInterface
import ShareKitSystemTesting
import Synchronization
import Testing

/// Real HEIC, AVIF, WebP and TIFF files, made at test time by the tools a
/// person would use (heif-enc, cwebp, exiftool) or by libheif's encoder,
/// converted and read back by djpeg and exiftool, not by this code.
@Suite("photos as JPEG")
struct ConversionTests {
    static let heifTools = TestTool.available("heif-enc", "djpeg")
    static let webpTools = TestTool.available("cwebp", "djpeg")
    static let metadataTools = TestTool.available("exiftool", "djpeg")
    static let missingHeif = "needs heif-enc (libheif-examples) and djpeg (libjpeg-turbo-progs)"
    static let missingWebP = "needs cwebp (webp) and djpeg (libjpeg-turbo-progs)"
    static let missingExifTool = "needs exiftool (libimage-exiftool-perl) and djpeg (libjpeg-turbo-progs)"

    /// Checks that `path` is a JPEG showing `expected` (TL, TR, BL, BR) at `width` × `height`.
    static func expectPicture(
        _ path: String, width: Int, height: Int, _ expected: [Colour], in conversion: Conversion,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let bytes = try conversion.bytes(path)
        #expect(bytes.starts(with: [0xFF, 0xD8]), "not a JPEG", sourceLocation: sourceLocation)
        #expect(bytes.suffix(2) == [0xFF, 0xD9], "the JPEG does not end", sourceLocation: sourceLocation)
        let decoded = try DecodedJPEG(path: path, scratch: conversion.scratch)
        #expect(decoded.width == width && decoded.height == height, sourceLocation: sourceLocation)
        let found = decoded.quadrantCentres
        #expect(
            zip(found, expected).allSatisfy { $0.isClose(to: $1) }, "quadrants \(found), expected \(expected)",
            sourceLocation: sourceLocation)
    }

    @Test(
        "a HEIC photo from heif-enc becomes a JPEG of the same picture; the HEIC is untouched",
        .enabled(if: heifTools, Comment(rawValue: missingHeif)))
    func heicBecomesJPEG() throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        let picture = QuadrantPicture()
        let png = try conversion.write(picture.png(), "photo.png")
        let heic = conversion.scratch.file("photo.heic")
        try TestTool.run("heif-enc", ["-q", "90", "-o", heic, png])
        let before = try conversion.bytes(heic)
        let (result, jpeg) = try conversion.convert(heic)
        #expect(result.width == 64 && result.height == 32)
        #expect(result.size == Int64(try conversion.bytes(jpeg).count))
        try Self.expectPicture(jpeg, width: 64, height: 32, picture.quadrants, in: conversion)
        #expect(try conversion.bytes(heic) == before)
    }

    @Test("an AVIF photo becomes a JPEG", .enabled(if: heifTools, Comment(rawValue: missingHeif)))
    func avifBecomesJPEG() throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        let picture = QuadrantPicture()
        let png = try conversion.write(picture.png(), "photo.png")
        let avif = conversion.scratch.file("photo.avif")
        try TestTool.run("heif-enc", ["-A", "-q", "90", "-o", avif, png])
        let (_, jpeg) = try conversion.convert(avif)
        try Self.expectPicture(jpeg, width: 64, height: 32, picture.quadrants, in: conversion)
    }

    @Test(
        "a HEIC stored sideways with its rotation (irot) comes out upright: width and height swap, as for EXIF 6",
        .enabled(if: TestTool.available("djpeg"), "needs djpeg (libjpeg-turbo-progs)"),
        arguments: [6, 3, 8])
    func heicTransformationApplied(orientation: Int) throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        let picture = QuadrantPicture()
        let heic = conversion.scratch.file("sideways.heic")
        try picture.heicWithTransformation(orientation: orientation, to: heic)
        let (result, jpeg) = try conversion.convert(heic)
        let swapped = orientation >= 5
        #expect(result.width == (swapped ? 32 : 64) && result.height == (swapped ? 64 : 32))
        try Self.expectPicture(
            jpeg, width: result.width, height: result.height, picture.upright(orientation: orientation), in: conversion)
    }

    @Test(
        "a HEIC's location is removed, its camera kept; --keep-metadata keeps the location",
        .enabled(if: heifTools && metadataTools, Comment(rawValue: missingExifTool)))
    func heicLocation() throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        let png = try conversion.write(QuadrantPicture().png(), "photo.png")
        let heic = conversion.scratch.file("photo.heic")
        try TestTool.run("heif-enc", ["-o", heic, png])
        try ExifTool.tag(heic)
        #expect(try ExifTool.tags(heic)["GPS:GPSLatitude"] != nil, "the fixture has a location")

        let (stripped, strippedPath) = try conversion.convert(heic)
        #expect(stripped.removedLocation)
        let tags = try ExifTool.tags(strippedPath)
        #expect(tags.keys.filter { $0.hasPrefix("GPS:") }.isEmpty, "GPS tags left: \(tags.keys.sorted())")
        #expect(tags["IFD0:Make"] == .text("Example"))
        #expect(tags["IFD0:Model"] == .text("Phone 1"))

        let kept = try conversion.write(try conversion.bytes(heic), "kept.heic")
        let (keptResult, keptPath) = try conversion.convert(kept, options: JPEGConversionOptions(keepMetadata: true))
        #expect(!keptResult.removedLocation)
        let keptTags = try ExifTool.tags(keptPath)
        let latitude = keptTags["GPS:GPSLatitude"]?.number
        #expect(latitude.map { abs($0 - 48.8584) < 0.001 } == true, "\(keptTags)")
        #expect(keptTags["IFD0:Make"] == .text("Example"))
    }

    /// `picture` as a WebP made by cwebp (quality 95, or lossless), with an
    /// EXIF orientation, a camera and a location written by exiftool.
    static func taggedWebP(
        _ picture: QuadrantPicture, orientation: Int, lossless: Bool = false, in conversion: Conversion
    ) throws -> String {
        let png = try conversion.write(picture.png(), "photo.png")
        let webp = conversion.scratch.file("photo.webp")
        try TestTool.run("cwebp", ["-quiet"] + (lossless ? ["-lossless"] : ["-q", "95"]) + [png, "-o", webp])
        try ExifTool.tag(webp, orientation: orientation)
        return webp
    }

    @Test(
        "a WebP with EXIF orientation 6 comes out upright (32 × 64) with orientation 1 and no location",
        .enabled(if: webpTools && metadataTools, Comment(rawValue: missingExifTool + "; " + missingWebP)))
    func webpOrientationAndLocation() throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        let picture = QuadrantPicture()
        let webp = try Self.taggedWebP(picture, orientation: 6, in: conversion)
        let before = try conversion.bytes(webp)
        let (result, jpeg) = try conversion.convert(webp)
        #expect(result.width == 32 && result.height == 64)
        try Self.expectPicture(jpeg, width: 32, height: 64, picture.upright(orientation: 6), in: conversion)
        let tags = try ExifTool.tags(jpeg)
        #expect(tags["IFD0:Orientation"] == .number(1))
        #expect(tags.keys.filter { $0.hasPrefix("GPS:") }.isEmpty)
        #expect(tags["IFD0:Make"] == .text("Example"))
        #expect(try conversion.bytes(webp) == before)
    }

    @Test("a WebP's transparent half is white in the JPEG", .enabled(if: webpTools, Comment(rawValue: missingWebP)))
    func webpTransparency() throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        var picture = QuadrantPicture()
        picture.transparentRightHalf = true
        let png = try conversion.write(picture.png(), "clear.png")
        let webp = conversion.scratch.file("clear.webp")
        try TestTool.run("cwebp", ["-quiet", "-lossless", "-exact", png, "-o", webp])
        let (_, jpeg) = try conversion.convert(webp)
        try Self.expectPicture(jpeg, width: 64, height: 32, [.red, .white, .blue, .white], in: conversion)
    }

    @Test(
        "a TIFF in strips comes out in each of the eight orientations, the same JPEG when read in bands of 7 columns (10 passes over the file for 5 to 8)",
        .enabled(if: TestTool.available("djpeg"), "needs djpeg (libjpeg-turbo-progs)"), arguments: 1...8)
    func tiffOrientations(orientation: Int) throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        let picture = QuadrantPicture()
        let tiff = try conversion.write(picture.tiff(orientation: orientation, rowsPerStrip: 5), "scan.tiff")
        let (result, jpeg) = try conversion.convert(tiff)
        let swapped = orientation >= 5
        #expect(result.width == (swapped ? 32 : 64) && result.height == (swapped ? 64 : 32))
        try Self.expectPicture(
            jpeg, width: result.width, height: result.height, picture.upright(orientation: orientation), in: conversion)
        let (banded, bandedPath) = try conversion.convert(tiff, bandBytes: 7 * 32 * 4)
        #expect(banded == result)
        #expect(try conversion.bytes(bandedPath) == conversion.bytes(jpeg))
    }

    @Test(
        "a TIFF's location is removed and kept with --keep-metadata",
        .enabled(if: metadataTools, Comment(rawValue: missingExifTool)))
    func tiffLocation() throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        let tiff = try conversion.write(QuadrantPicture().tiff(), "scan.tiff")
        try ExifTool.tag(tiff)
        let (result, jpeg) = try conversion.convert(tiff)
        #expect(result.removedLocation)
        let tags = try ExifTool.tags(jpeg)
        #expect(tags.keys.filter { $0.hasPrefix("GPS:") }.isEmpty)
        #expect(tags["IFD0:Make"] == .text("Example"))
        let (_, keptPath) = try conversion.convert(tiff, options: JPEGConversionOptions(keepMetadata: true))
        #expect(try ExifTool.tags(keptPath)["GPS:GPSLongitude"] != nil)
    }

    @Test("the checkpoint stops a conversion between rows: past the deadline nothing more is encoded")
    func checkpointStops() throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        var picture = QuadrantPicture()
        picture.width = 256
        picture.height = 256
        let tiff = try conversion.write(picture.tiff(rowsPerStrip: 16), "big.tiff")
        let asked = Mutex(0)
        let options = JPEGConversionOptions(checkpoint: {
            asked.withLock { count in
                count += 1
                return count > 3 ? .deadlineExceeded : nil
            }
        })
        #expect(throws: ImageConversionError.stopped(.deadlineExceeded)) {
            try conversion.convert(tiff, options: options)
        }
        #expect(asked.withLock { $0 } == 4)
    }
}
