import Foundation
import ShareKitClientTestSupport
import ShareKitInboxInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// One metadata rule for every photo `share send` shares: a JPEG or PNG
/// the server takes as it is loses its location and identifying tags
/// without being re-encoded, as a converted photo does; `--keep-metadata`
/// sends it as it is. And a PNG or GIF for a server that takes JPEG but not
/// their type is converted, its transparency laid on white.
@Suite("share send: photo metadata and PNG/GIF as JPEG")
struct PhotoMetadataTests {
    static let exifTools = TestTool.available("cjpeg", "djpeg", "exiftool")
    static let missing = "needs cjpeg, djpeg (libjpeg-turbo-progs) and exiftool (libimage-exiftool-perl)"

    /// The seed of a server that takes JPEG photos and nothing else.
    static var jpegOnly: [String: Any] {
        var seed = DemoLikeSeed.value
        seed["accepted_content_types"] = ["image/jpeg"]
        return seed
    }

    /// A photo as a phone leaves it: a camera, an orientation (6: held
    /// upright), a location in EXIF and XMP, the camera's owner and serial
    /// number, an IPTC city and a comment.
    static func tagPhoto(_ path: String) throws {
        try TestTool.run(
            "exiftool",
            [
                "-overwrite_original", "-n", "-Make=Example", "-Model=Phone 1", "-Orientation=6",
                "-GPSLatitude=48.8584", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945", "-GPSLongitudeRef=E",
                "-XMP-exif:GPSLatitude=48.8584", "-XMP-dc:Creator=Alex Example", "-OwnerName=Alex Example",
                "-SerialNumber=SN-1234567", "-IPTC:City=Paris", "-Comment=taken at home", path,
            ])
    }

    /// The bytes the server stored for an upload (its parts, in order).
    static func stored(_ fixture: ShareCLIFixture, uploadID: String) throws -> [UInt8] {
        let directory = fixture.server.databasePath + ".uploads/" + uploadID
        let parts = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasPrefix("part-") && !$0.hasSuffix(".tmp") }
            .sorted { Int($0.dropFirst(5)) ?? 0 < Int($1.dropFirst(5)) ?? 0 }
        return try parts.flatMap { try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/" + $0))) }
    }

    /// Sends `path` to thread t1 and returns the newest attachment and the stored bytes, written to `copy`.
    static func send(
        _ fixture: ShareCLIFixture, _ path: String, extra: [String] = [], copy: String
    ) async throws -> (attachment: [String: Any], bytes: [UInt8]) {
        let result = try fixture.share(["send", path, "--to", "thread:t1"] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        let messages = try await fixture.messages(thread: "t1")
        let attachment = try #require((messages.last?["attachments"] as? [[String: Any]])?.first)
        let bytes = try stored(fixture, uploadID: try #require(attachment["upload_id"] as? String))
        try Data(bytes).write(to: URL(fileURLWithPath: copy))
        return (attachment, bytes)
    }

    /// The tags that tell who or where: location (EXIF, XMP), XMP and IPTC
    /// as a whole, the owner, the serial number, the comment.
    static func identifying(_ tags: [String: ExifTool.Value]) -> [String] {
        tags.keys.filter { key in
            key.hasPrefix("GPS:") || key.hasPrefix("XMP") || key.hasPrefix("IPTC:") || key.hasSuffix(":OwnerName")
                || key.hasSuffix(":SerialNumber") || key == "File:Comment" || key.contains("GPSLatitude")
        }.sorted()
    }

    @Test(
        "a JPEG the server takes arrives without location, XMP, IPTC, owner, serial number and comment, its pixels and orientation untouched; --keep-metadata sends it byte for byte",
        .enabled(if: exifTools, Comment(rawValue: missing)))
    func jpegAsItIs() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let ppm = fixture.home.file("picture.ppm")
        try Data(QuadrantPicture().ppm()).write(to: URL(fileURLWithPath: ppm))
        let photo = fixture.home.file("IMG_0001.JPG")
        try TestTool.run("cjpeg", ["-outfile", photo, ppm])
        try Self.tagPhoto(photo)
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: photo)))
        #expect(Self.identifying(try ExifTool.tags(photo)).count >= 6, "the test photo carries what it should")

        let sent = try await Self.send(fixture, photo, copy: fixture.home.file("stored.jpg"))
        #expect(sent.attachment["content_type"] as? String == "image/jpeg")
        #expect(sent.attachment["file_name"] as? String == "IMG_0001.JPG")
        let tags = try ExifTool.tags(fixture.home.file("stored.jpg"))
        #expect(Self.identifying(tags).isEmpty, "left in the shared JPEG: \(Self.identifying(tags))")
        #expect(tags["IFD0:Make"] == .text("Example"), "\(tags.keys.sorted())")
        #expect(tags["IFD0:Orientation"] == .number(6), "the orientation is kept: the pixels were not turned")
        // Not re-encoded: the same pixels, bit for bit.
        let scratch = try TemporaryDirectory(prefix: "jpeg-pixels")
        defer { scratch.remove() }
        let before = try DecodedJPEG(path: photo, scratch: scratch)
        let after = try DecodedJPEG(path: fixture.home.file("stored.jpg"), scratch: scratch)
        #expect(before.pixels == after.pixels && before.width == after.width)
        #expect(sent.bytes.count < original.count)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: photo))) == original, "the original is unchanged")

        let kept = try await Self.send(
            fixture, photo, extra: ["--keep-metadata"], copy: fixture.home.file("kept.jpg"))
        #expect(kept.bytes == original, "--keep-metadata sends the JPEG as it is")
    }

    @Test(
        "a PNG the server takes arrives without the location of its eXIf and its XMP; the image data is the same",
        .enabled(if: TestTool.available("exiftool"), "needs exiftool (libimage-exiftool-perl)"))
    func pngAsItIs() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let photo = fixture.home.file("screenshot.png")
        try Data(QuadrantPicture().png()).write(to: URL(fileURLWithPath: photo))
        try TestTool.run(
            "exiftool",
            [
                "-overwrite_original", "-n", "-EXIF:Make=Example", "-EXIF:GPSLatitude=48.8584",
                "-EXIF:GPSLatitudeRef=N", "-XMP-dc:Creator=Alex Example", photo,
            ])
        #expect(Self.identifying(try ExifTool.tags(photo)).count >= 2)
        let sent = try await Self.send(fixture, photo, copy: fixture.home.file("stored.png"))
        #expect(sent.attachment["content_type"] as? String == "image/png")
        let tags = try ExifTool.tags(fixture.home.file("stored.png"))
        #expect(Self.identifying(tags).isEmpty, "left in the shared PNG: \(Self.identifying(tags))")
        #expect(tags["IFD0:Make"] == .text("Example"), "\(tags.keys.sorted())")
        let idat = { (bytes: [UInt8]) in bytes.firstRange(of: Array("IDAT".utf8)).map { bytes[$0.lowerBound...] } }
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: photo)))
        #expect(idat(sent.bytes).map(Array.init) == idat(original).map(Array.init), "the image data is the original's")
    }

    @Test(
        "a PNG and a GIF with transparency, to a server that takes JPEG but not their type, arrive as JPEGs with the transparent half white",
        .enabled(if: TestTool.available("djpeg"), "needs djpeg (libjpeg-turbo-progs)"),
        arguments: ["png", "gif"])
    func transparentToJPEG(format: String) async throws {
        let fixture = try await ShareCLIFixture(seed: Self.jpegOnly)
        defer { fixture.close() }
        var picture = QuadrantPicture()
        picture.transparentRightHalf = true
        let photo = fixture.home.file("drawing.\(format)")
        try Data(format == "png" ? picture.png() : picture.gif()).write(to: URL(fileURLWithPath: photo))
        let sent = try await Self.send(fixture, photo, copy: fixture.home.file("stored.jpg"))
        #expect(sent.attachment["content_type"] as? String == "image/jpeg")
        #expect(sent.attachment["file_name"] as? String == "drawing.jpg")
        let scratch = try TemporaryDirectory(prefix: "flattened")
        defer { scratch.remove() }
        let decoded = try DecodedJPEG(path: fixture.home.file("stored.jpg"), scratch: scratch)
        #expect(decoded.width == 64 && decoded.height == 32)
        let centres = decoded.quadrantCentres
        let expected: [Colour] = [.red, .white, .blue, .white]
        #expect(zip(centres, expected).allSatisfy { $0.isClose(to: $1) }, "\(centres)")
    }

    @Test(
        "a JPEG cut short inside its EXIF block is refused (exit 4, metadata_not_removable) rather than sent with its location; --keep-metadata sends it as it is",
        .enabled(if: exifTools, Comment(rawValue: missing)))
    func damagedJPEG() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let ppm = fixture.home.file("picture.ppm")
        try Data(QuadrantPicture().ppm()).write(to: URL(fileURLWithPath: ppm))
        let photo = fixture.home.file("cut.jpg")
        try TestTool.run("cjpeg", ["-outfile", photo, ppm])
        try Self.tagPhoto(photo)
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: photo)))
        let exif = try #require(whole.firstRange(of: Array("Exif".utf8) + [0, 0]))
        try Data(whole.prefix(exif.upperBound + 64)).write(to: URL(fileURLWithPath: photo))
        let refused = try fixture.share(["send", photo, "--to", "thread:t1", "--json"])
        #expect(refused.status == 4, "\(refused.stdout) \(refused.stderr)")
        #expect(
            refused.stderr.contains("its location and other identifying metadata cannot be removed"),
            "\(refused.stderr)")
        #expect(ShareCLIFixture.json(refused)["code"] as? String == "metadata_not_removable")
        #expect(try fixture.scanInbox().entries.isEmpty)
        #expect(try await fixture.messages(thread: "t1").isEmpty)
        let kept = try await Self.send(
            fixture, photo, extra: ["--keep-metadata"], copy: fixture.home.file("kept.jpg"))
        #expect(kept.bytes == Array(whole.prefix(exif.upperBound + 64)))
    }

    @Test("an animated GIF to a server that takes only JPEG is refused (exit 4) naming why; nothing is kept")
    func animatedGIF() async throws {
        let fixture = try await ShareCLIFixture(seed: Self.jpegOnly)
        defer { fixture.close() }
        let photo = fixture.home.file("dance.gif")
        try Data(QuadrantPicture().gif(frames: 3)).write(to: URL(fileURLWithPath: photo))
        let result = try fixture.share(["send", photo, "--to", "thread:t1", "--json"])
        #expect(result.status == 4, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("the server does not accept image/gif"), "\(result.stderr)")
        #expect(result.stderr.contains("animated"), "\(result.stderr)")
        #expect(try fixture.scanInbox().entries.isEmpty)
    }
}
