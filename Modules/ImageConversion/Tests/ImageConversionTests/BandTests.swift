import Foundation
import ShareKitImageConversionInterface
import ShareKitSystemTesting
import Testing

/// The decoders that cannot hand out rows in the output's order decode a
/// band of rows or columns at a time (a pass over the file each): a
/// converter with a tiny band budget must make the same picture, in every
/// orientation, as one that takes the picture in one piece.
@Suite("photos decoded band by band")
struct BandTests {
    /// The largest difference of one sample between two decoded JPEGs of the same size.
    static func largestDifference(_ a: DecodedJPEG, _ b: DecodedJPEG) -> Int {
        zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    @Test(
        "a TIFF read in bands of rows or columns makes the same JPEG as one read in a single band, in all eight orientations",
        .enabled(if: TestTool.available("djpeg"), "needs djpeg (libjpeg-turbo-progs)"), arguments: 1...8)
    func tiffBands(orientation: Int) throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        let picture = QuadrantPicture()
        let tiff = try conversion.write(picture.tiff(orientation: orientation, rowsPerStrip: 5), "scan.tiff")
        // 7 columns of 32 rows (or 5-row strips): 10 passes over the file for 5 to 8.
        let (banded, bandedPath) = try conversion.convert(tiff, bandBytes: 7 * 32 * 4)
        let (whole, wholePath) = try conversion.convert(tiff)
        #expect(banded == whole)
        try ConversionTests.expectPicture(
            bandedPath, width: banded.width, height: banded.height, picture.upright(orientation: orientation),
            in: conversion)
        #expect(try conversion.bytes(bandedPath) == conversion.bytes(wholePath))
    }

    @Test(
        "a WebP decoded in bands of rows or columns (libwebp's cropping) makes the picture of one decoded whole, in all eight orientations",
        .enabled(
            if: ConversionTests.webpTools && ConversionTests.metadataTools,
            Comment(rawValue: ConversionTests.missingWebP + "; " + ConversionTests.missingExifTool)),
        arguments: 1...8)
    func webpBands(orientation: Int) throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        let picture = QuadrantPicture()
        let png = try conversion.write(picture.png(), "photo.png")
        let webp = conversion.scratch.file("photo.webp")
        try TestTool.run("cwebp", ["-quiet", "-q", "95", png, "-o", webp])
        try ExifTool.tag(webp, orientation: orientation)
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
