import Foundation
import ShareKitClientTestSupport
import ShareKitInboxInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// `share send` with phone photos (made at test time by heif-enc and cwebp)
/// to a reference server whose `accepted_content_types` is only
/// `image/jpeg`: what arrives is a JPEG, the photo on disk is as it was.
@Suite("share send: photos as JPEG")
struct PhotoSendTests {
    static let tools = TestTool.available("heif-enc")
    static let missing = "needs heif-enc (libheif-examples)"

    /// The seed of a server that takes JPEG photos and nothing else.
    static var jpegOnly: [String: Any] {
        var seed = DemoLikeSeed.value
        seed["accepted_content_types"] = ["image/jpeg"]
        return seed
    }

    /// A HEIC of the test picture, as `IMG_0001.HEIC` in the fixture's home.
    static func heic(_ fixture: ShareCLIFixture, name: String = "IMG_0001.HEIC") throws -> String {
        let png = fixture.home.file("picture.png")
        try Data(QuadrantPicture().png()).write(to: URL(fileURLWithPath: png))
        let heic = fixture.home.file(name)
        try TestTool.run("heif-enc", ["-o", heic, png])
        return heic
    }

    /// The bytes the server stored for an upload (its parts, in order).
    static func stored(_ fixture: ShareCLIFixture, uploadID: String) throws -> [UInt8] {
        let directory = fixture.server.databasePath + ".uploads/" + uploadID
        let parts = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasPrefix("part-") && !$0.hasSuffix(".tmp") }
            .sorted { Int($0.dropFirst(5)) ?? 0 < Int($1.dropFirst(5)) ?? 0 }
        return try parts.flatMap { try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/" + $0))) }
    }

    /// The one attachment of the newest message in thread t1.
    static func attachment(_ fixture: ShareCLIFixture) async throws -> [String: Any] {
        let messages = try await fixture.messages(thread: "t1")
        return try #require((messages.last?["attachments"] as? [[String: Any]])?.first)
    }

    @Test(
        "a HEIC to a server that accepts only image/jpeg arrives as IMG_0001.jpg, a JPEG; the HEIC is byte-identical",
        .enabled(if: tools, Comment(rawValue: missing)))
    func heicArrivesAsJPEG() async throws {
        let fixture = try await ShareCLIFixture(seed: Self.jpegOnly)
        defer { fixture.close() }
        let heic = try Self.heic(fixture)
        let before = try Data(contentsOf: URL(fileURLWithPath: heic))
        // The first send learns the server's types after the share is kept
        // (converted in the inbox entry); the second knows them beforehand
        // (converted while loading).
        for round in 1...2 {
            let result = try fixture.share(["send", heic, "--to", "thread:t1", "--verbose"])
            #expect(result.status == 0, "round \(round): \(result.stderr)")
            #expect(
                result.stderr.contains("image/heif converted to JPEG as IMG_0001.jpg (64 × 32)"), "\(result.stderr)")
            let attachment = try await Self.attachment(fixture)
            #expect(attachment["file_name"] as? String == "IMG_0001.jpg")
            #expect(attachment["content_type"] as? String == "image/jpeg")
            let upload = try #require(attachment["upload_id"] as? String)
            let bytes = try Self.stored(fixture, uploadID: upload)
            #expect(bytes.starts(with: [0xFF, 0xD8]), "round \(round): the stored upload is not a JPEG")
            #expect(attachment["size"] as? Int == bytes.count)
            #expect(try Data(contentsOf: URL(fileURLWithPath: heic)) == before)
            #expect(try fixture.scanInbox().entries.isEmpty)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.home.path)
        #expect(!names.contains { $0.hasSuffix(".jpg") }, "no JPEG was left beside the original: \(names)")
    }

    @Test(
        "the location is removed from the uploaded JPEG; --keep-metadata keeps it",
        .enabled(if: tools && TestTool.available("exiftool"), "needs heif-enc and exiftool (libimage-exiftool-perl)"))
    func location() async throws {
        let fixture = try await ShareCLIFixture(seed: Self.jpegOnly)
        defer { fixture.close() }
        let heic = try Self.heic(fixture)
        try ExifTool.tag(heic)
        for keep in [false, true] {
            let result = try fixture.share(["send", heic, "--to", "thread:t1"] + (keep ? ["--keep-metadata"] : []))
            #expect(result.status == 0, "\(result.stderr)")
            let upload = try #require(try await Self.attachment(fixture)["upload_id"] as? String)
            let copy = fixture.home.file("stored-\(keep).jpg")
            try Data(try Self.stored(fixture, uploadID: upload)).write(to: URL(fileURLWithPath: copy))
            let tags = try ExifTool.tags(copy)
            #expect(tags["IFD0:Make"] == .text("Example"))
            #expect((tags["GPS:GPSLatitude"] != nil) == keep, "keep-metadata \(keep): \(tags.keys.sorted())")
        }
    }

    @Test(
        "a truncated HEIC is refused (exit 4) naming image/heif and why; nothing is kept, nothing uploaded",
        .enabled(if: tools, Comment(rawValue: missing)))
    func truncatedHEIC() async throws {
        let fixture = try await ShareCLIFixture(seed: Self.jpegOnly)
        defer { fixture.close() }
        let heic = try Self.heic(fixture)
        let whole = try Data(contentsOf: URL(fileURLWithPath: heic))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: heic))
        let result = try fixture.share(["send", heic, "--to", "thread:t1", "--json"])
        #expect(result.status == 4, "\(result.stdout) \(result.stderr)")
        #expect(
            result.stderr.contains("the server does not accept image/heif, and it cannot be converted to JPEG"),
            "\(result.stderr)")
        #expect(ShareCLIFixture.json(result)["code"] as? String == "unsupported_type")
        #expect(try fixture.scanInbox().entries.isEmpty)
        #expect(!fixture.sandbox.stopServer().contains("/api/v1/uploads"))
    }

    @Test(
        "a HEIC grid claiming 20000 or 40000 pixels a side is refused (exit 4) as too large before it is decoded: nothing kept or uploaded, share's memory stays that of a small photo",
        .enabled(if: tools, Comment(rawValue: missing)), arguments: [20_000, 40_000])
    func gridBomb(side: Int) async throws {
        let fixture = try await ShareCLIFixture(seed: Self.jpegOnly)
        defer { fixture.close() }
        let heic = try Self.heic(fixture)
        // Four copies of heif-enc's 64 × 64 tile in a grid that says it is
        // side × side, while its ispe says 128 × 128: about 2 KB.
        var file = TestHEIF(brand: "heic")
        let tile = file.add(
            try CodedHEIFPicture(heifFile: [UInt8](Data(contentsOf: URL(fileURLWithPath: heic)))), hidden: true)
        file.primary = file.addGrid(
            columns: 2, rows: 2, tiles: [tile, tile, tile, tile], width: side, height: side, claimed: (128, 128))
        let bomb = fixture.home.file("IMG_0002.HEIC")
        try Data(file.bytes()).write(to: URL(fileURLWithPath: bomb))

        let refused = try fixture.share(["send", bomb, "--to", "thread:t1", "--json"])
        #expect(refused.status == 4, "\(refused.stdout) \(refused.stderr)")
        #expect(
            refused.stderr.contains(
                "it cannot be converted to JPEG: \(side) × \(side) pixels is more than the 67 megapixels"),
            "\(refused.stderr)")
        #expect(ShareCLIFixture.json(refused)["code"] as? String == "unsupported_type")
        #expect(try fixture.scanInbox().entries.isEmpty)
        #expect(try await fixture.messages(thread: "t1").isEmpty)

        // The same program converting a real 64 × 32 HEIC, for comparison.
        let normal = try fixture.share(["send", heic, "--to", "thread:t1"])
        #expect(normal.status == 0, "\(normal.stderr)")
        #expect(
            refused.peakResidentKiB < normal.peakResidentKiB + 32 * 1024,
            "peak RSS \(refused.peakResidentKiB) KiB refusing the grid, \(normal.peakResidentKiB) KiB converting a photo"
        )
    }

    /// The peak RSS of `share` read by a small parent of it (RUSAGE_CHILDREN):
    /// a process spawned from this test runner starts with the runner's own
    /// peak in its ru_maxrss (Linux keeps the high-water mark of the memory
    /// it shared before exec), which would hide the child's.
    static let measuredShare = """
        import resource, subprocess, sys
        code = subprocess.run(sys.argv[1:]).returncode
        print("peak-kib", resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
        sys.exit(code)
        """

    @Test(
        "a 48-megapixel HEIC grid (as phones write it) and WebP to a JPEG-only server: share send converts each at full size with a peak RSS of at most 128 MiB",
        .enabled(
            if: tools && TestTool.available("cwebp", "python3"),
            "needs heif-enc (libheif-examples), cwebp (webp) and python3"))
    func largePhotosInBoundedMemory() async throws {
        let fixture = try await ShareCLIFixture(seed: Self.jpegOnly)
        defer { fixture.close() }
        var picture = QuadrantPicture()
        (picture.width, picture.height) = (8064, 6048)
        let heic = fixture.home.file("IMG_4800.HEIC")
        try picture.heicGrid(to: heic)
        // cwebp scales the 64 × 32 picture up: a 48 MP WebP in a few seconds, its quadrants kept.
        let small = fixture.home.file("small.png")
        try Data(QuadrantPicture().png()).write(to: URL(fileURLWithPath: small))
        let webp = fixture.home.file("IMG_4801.webp")
        try TestTool.run("cwebp", ["-quiet", "-resize", "8064", "6048", small, "-o", webp])
        for (photo, type, name) in [(heic, "image/heif", "IMG_4800.jpg"), (webp, "image/webp", "IMG_4801.jpg")] {
            let result = try runProcess(
                "/usr/bin/python3",
                [
                    "-c", Self.measuredShare, BuiltProducts.path("share"), "send", photo, "--to", "thread:t1",
                    "--verbose",
                ],
                environment: fixture.sandbox.environment)
            #expect(result.status == 0, "\(name): \(result.stderr)")
            #expect(
                result.stderr.contains("\(type) converted to JPEG as \(name) (8064 × 6048)"), "\(result.stderr)")
            let peak = result.stdout.split(separator: "\n").compactMap { line -> Int? in
                line.hasPrefix("peak-kib ") ? Int(line.dropFirst("peak-kib ".count)) : nil
            }.last
            let kib = try #require(peak, "no peak in \(result.stdout)")
            #expect(kib <= 128 * 1024, "\(name): share send peaked at \(kib / 1024) MiB")
            let attachment = try await Self.attachment(fixture)
            #expect(attachment["file_name"] as? String == name)
            #expect(attachment["content_type"] as? String == "image/jpeg")
            let bytes = try Self.stored(fixture, uploadID: try #require(attachment["upload_id"] as? String))
            #expect(bytes.starts(with: [0xFF, 0xD8]) && bytes.suffix(2) == [0xFF, 0xD9])
        }
    }

    @Test(
        "a HEIC share when libheif cannot be loaded is refused (exit 4) naming libheif; nothing is kept, nothing uploaded",
        .enabled(if: tools, Comment(rawValue: missing)))
    func codecThatCannotBeLoaded() async throws {
        let fixture = try await ShareCLIFixture(seed: Self.jpegOnly)
        defer { fixture.close() }
        let heic = try Self.heic(fixture)
        // A file that is not a library where the dynamic loader looks first.
        let libraries = fixture.home.file("broken-libraries")
        try FileManager.default.createDirectory(atPath: libraries, withIntermediateDirectories: true)
        try Data("not a library\n".utf8).write(to: URL(fileURLWithPath: libraries + "/libheif.so.1"))
        let result = try fixture.share(
            ["send", heic, "--to", "thread:t1", "--json"], environment: ["LD_LIBRARY_PATH": libraries])
        #expect(result.status == 4, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("it cannot be converted to JPEG"), "\(result.stderr)")
        #expect(result.stderr.contains("libheif could not be loaded"), "\(result.stderr)")
        #expect(ShareCLIFixture.json(result)["code"] as? String == "unsupported_type")
        #expect(try fixture.scanInbox().entries.isEmpty)
        #expect(!fixture.sandbox.stopServer().contains("/api/v1/uploads"))
    }
}
