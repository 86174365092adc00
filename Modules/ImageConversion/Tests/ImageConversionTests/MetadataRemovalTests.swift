import Foundation
import ShareKitImageConversion
import ShareKitImageConversionInterface
import ShareKitSystemTesting
import Testing

/// The one metadata rule for a JPEG or PNG sent as it is: location,
/// XMP and identifying tags out, the image data and orientation as they were.
@Suite("metadata removal without re-encoding")
struct MetadataRemovalTests {
    @Test(
        "a JPEG loses its GPS directory, XMP, owner and serial number, keeps its camera and orientation, and its scan data is byte-identical",
        .enabled(if: TestTool.available("cjpeg", "exiftool"), "needs cjpeg and exiftool"))
    func jpeg() throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        let ppm = try conversion.write(QuadrantPicture().ppm(), "picture.ppm")
        let jpeg = conversion.scratch.file("photo.jpg")
        try TestTool.run("cjpeg", ["-outfile", jpeg, ppm])
        let plain = try conversion.bytes(jpeg)
        try ExifTool.tag(jpeg, orientation: 6)
        try TestTool.run(
            "exiftool",
            ["-overwrite_original", "-XMP-dc:Creator=Alex", "-OwnerName=Alex", "-SerialNumber=SN-1", jpeg])
        let (result, output) = try conversion.removeMetadata(jpeg)
        #expect(result.removedLocation && result.changed)
        let tags = try ExifTool.tags(output)
        #expect(tags["GPS:GPSLatitude"] == nil && tags["XMP-dc:Creator"] == nil)
        #expect(tags["ExifIFD:OwnerName"] == nil && tags["ExifIFD:SerialNumber"] == nil)
        #expect(tags["IFD0:Make"] == .text("Example") && tags["IFD0:Orientation"] == .number(6))
        // The image (from the first quantisation table on) is cjpeg's, byte for byte.
        let bytes = try conversion.bytes(output)
        let start = try #require(plain.firstRange(of: [0xFF, 0xDB])).lowerBound
        #expect(bytes.suffix(plain.count - start).elementsEqual(plain[start...]))
        #expect(Int64(bytes.count) == result.size)
    }

    @Test("a JPEG without metadata is copied unchanged; bytes after its end are left out")
    func plainJPEG() throws {
        guard TestTool.available("cjpeg") else { return }
        let conversion = try Conversion()
        defer { conversion.remove() }
        let ppm = try conversion.write(QuadrantPicture().ppm(), "picture.ppm")
        let jpeg = conversion.scratch.file("photo.jpg")
        try TestTool.run("cjpeg", ["-outfile", jpeg, ppm])
        let plain = try conversion.bytes(jpeg)
        let (unchanged, copy) = try conversion.removeMetadata(jpeg)
        #expect(!unchanged.changed && !unchanged.removedLocation)
        #expect(try conversion.bytes(copy) == plain)
        let trailing = try conversion.write(plain + Array("GPS 48.8584 N, a second picture".utf8), "trailing.jpg")
        let (cut, output) = try conversion.removeMetadata(trailing)
        #expect(cut.changed)
        #expect(try conversion.bytes(output) == plain)
    }

    @Test("a file that is neither a JPEG nor a PNG is refused by its first bytes")
    func other() throws {
        let conversion = try Conversion()
        defer { conversion.remove() }
        let path = try conversion.write(Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 20), "x.jpg")
        #expect(throws: ImageConversionError.unsupported("it is not a JPEG or PNG image")) {
            try conversion.removeMetadata(path)
        }
        let header = try conversion.write([0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x40, 0x45], "cut.jpg")
        #expect(throws: ImageConversionError.malformed("a JPEG segment is cut short")) {
            try conversion.removeMetadata(header)
        }
    }
}
