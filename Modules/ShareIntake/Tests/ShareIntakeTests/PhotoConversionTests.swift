import Foundation
import ShareKitImageConversionInterface
import ShareKitIntake
import ShareKitIntakeInterface
import ShareKitSystemTesting
import Synchronization
import Testing

/// The converter at the edge of intake, standing in for the real one
/// (ImageConversion has its own suite with real photos): it reads the whole
/// source it is given, writes a JPEG-shaped file, and does what a test
/// tells it (fail, run until the checkpoint stops it, write too much).
final class StandInConverter: ImageConverting, Sendable {
    enum Behaviour: Sendable {
        case convert(outputBytes: Int)
        case fail(ImageConversionError)
        case runUntilStopped
    }

    let behaviour: Behaviour
    /// What the converter read from its source, and whether it was told to keep metadata.
    let seen = Mutex<(source: [UInt8], keepMetadata: Bool?)>(([], nil))

    init(_ behaviour: Behaviour = .convert(outputBytes: 64)) { self.behaviour = behaviour }

    var readableContentTypes: Set<String> { ["image/heif", "image/webp", "image/tiff"] }

    func convertToJPEG(source: Int32, destination: Int32, options: JPEGConversionOptions)
        throws(ImageConversionError) -> JPEGConversion
    {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = pread(source, &buffer, buffer.count, off_t(bytes.count))
            guard n > 0 else { break }
            bytes += buffer[0..<n]
        }
        seen.withLock { $0 = (bytes, options.keepMetadata) }
        switch behaviour {
        case .fail(let error): throw error
        case .runUntilStopped:
            for _ in 0..<100_000 {
                if let stop = options.checkpoint() { throw .stopped(stop) }
                usleep(1000)
            }
            return JPEGConversion(width: 1, height: 1, size: 0, removedLocation: false)
        case .convert(let count):
            let jpeg = [0xFF, 0xD8] + [UInt8](repeating: 0x42, count: max(0, count - 4)) + [0xFF, 0xD9]
            let written = pwrite(destination, jpeg, jpeg.count, 0)
            guard written == jpeg.count else { throw .unwritable("short write") }
            return JPEGConversion(width: 3, height: 4, size: Int64(jpeg.count), removedLocation: !options.keepMetadata)
        }
    }
}

@Suite("photos the server takes only as JPEG")
struct PhotoConversionTests {
    /// The start of a HEIC file (libmagic: image/heic, the shared MIME database: image/heif).
    static let heic: [UInt8] =
        [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8) + [0, 0, 0, 8]
        + Array("free".utf8)

    static func intake(_ fixture: IntakeFixture, _ converter: StandInConverter, standardInput: Int32 = 0)
        -> FileShareIntake
    {
        FileShareIntake(
            catalog: fixture.catalog, sniffer: MagicSniffer(), standardInputDescriptor: standardInput,
            converter: converter)
    }

    static func policy(
        accepted: [String]? = Samples.demoTypes, keep: Bool = false, limit: Int64? = nil,
        timeout: Duration = .seconds(10)
    ) -> IntakePolicy {
        IntakePolicy(
            acceptedContentTypes: accepted, fileMaxUploadBytes: limit, loadTimeout: timeout, keepImageMetadata: keep)
    }

    @Test(
        "a HEIC for a server that takes JPEG but not HEIF becomes <stem>.jpg as image/jpeg; the original is only read")
    func converted() async throws {
        let fixture = try IntakeFixture()
        defer { fixture.remove() }
        let converter = StandInConverter()
        let path = try fixture.write("IMG_0001.HEIC", Self.heic)
        let items = try await Self.intake(fixture, converter).load(
            [.file(path: path)], into: fixture.destination, policy: Self.policy(), progress: nil)
        let item = try #require(items.first)
        #expect(item.kind == .image)
        #expect(item.fileName == "IMG_0001.jpg")
        #expect(item.contentType == "image/jpeg")
        #expect(item.detectedContentType == "image/heif")
        #expect(
            item.conversion
                == IntakeConversion(originalContentType: "image/heif", width: 3, height: 4, removedLocation: true))
        #expect(try fixture.copies() == ["1-IMG_0001.jpg"])
        let jpeg = try fixture.copy(item.storedName)
        #expect(jpeg.starts(with: [0xFF, 0xD8]) && item.size == Int64(jpeg.count))
        #expect(converter.seen.withLock { $0.source } == Self.heic)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == Self.heic)
        #expect(converter.seen.withLock { $0.keepMetadata } == false)
    }

    @Test("keepImageMetadata (share send --keep-metadata) reaches the converter")
    func keepMetadata() async throws {
        let fixture = try IntakeFixture()
        defer { fixture.remove() }
        let converter = StandInConverter()
        let path = try fixture.write("photo.heic", Self.heic)
        let items = try await Self.intake(fixture, converter).load(
            [.file(path: path)], into: fixture.destination, policy: Self.policy(keep: true), progress: nil)
        #expect(converter.seen.withLock { $0.keepMetadata } == true)
        #expect(items.first?.conversion?.removedLocation == false)
    }

    @Test("a server that takes HEIF gets the HEIC as it is; one without JPEG refuses it as before")
    func notConverted() async throws {
        let fixture = try IntakeFixture()
        defer { fixture.remove() }
        let converter = StandInConverter()
        let intake = Self.intake(fixture, converter)
        let path = try fixture.write("photo.heic", Self.heic)
        let items = try await intake.load(
            [.file(path: path)], into: fixture.destination,
            policy: Self.policy(accepted: Samples.demoTypes + ["image/heif"]),
            progress: nil)
        #expect(items.first?.contentType == "image/heif" && items.first?.conversion == nil)
        #expect(try fixture.copy(items.first?.storedName) == Self.heic)
        let noJPEG = ["text/plain", "image/png"]
        await #expect(throws: IntakeError.unsupportedType(item: path, contentType: "image/heif", accepted: noJPEG)) {
            try await intake.load(
                [.file(path: path)], into: fixture.destination, policy: Self.policy(accepted: noJPEG), progress: nil)
        }
    }

    @Test("a photo that cannot be converted is refused naming its type and why, and leaves no file")
    func failedConversion() async throws {
        let fixture = try IntakeFixture()
        defer { fixture.remove() }
        let converter = StandInConverter(.fail(.tooManyPixels(width: 60_000, height: 60_000, limit: 1 << 26)))
        let path = try fixture.write("bomb.heic", Self.heic)
        let error = await #expect(throws: IntakeError.self) {
            try await Self.intake(fixture, converter).load(
                [.file(path: path)], into: fixture.destination, policy: Self.policy(), progress: nil)
        }
        #expect(
            error?.description
                == "\(path): the server does not accept image/heif, and it cannot be converted to JPEG: 60000 × 60000 "
                + "pixels is more than the 67 megapixels (67108864 pixels) a photo may have to be converted")
        #expect(try fixture.copies().isEmpty)
    }

    @Test("a conversion still running at the load's deadline ends with the deadline error and no file")
    func deadline() async throws {
        let fixture = try IntakeFixture()
        defer { fixture.remove() }
        let path = try fixture.write("slow.heic", Self.heic)
        await #expect(throws: IntakeError.deadlineExceeded(item: path, seconds: 0.2)) {
            try await Self.intake(fixture, StandInConverter(.runUntilStopped)).load(
                [.file(path: path)], into: fixture.destination, policy: Self.policy(timeout: .milliseconds(200)),
                progress: nil)
        }
        #expect(try fixture.copies().isEmpty)
    }

    @Test("a JPEG larger than file_max_upload_bytes is refused and removed")
    func jpegTooLarge() async throws {
        let fixture = try IntakeFixture()
        defer { fixture.remove() }
        let path = try fixture.write("big.heic", Self.heic)
        await #expect(throws: IntakeError.tooLarge(item: path, size: 4096, limit: 1000)) {
            try await Self.intake(fixture, StandInConverter(.convert(outputBytes: 4096))).load(
                [.file(path: path)], into: fixture.destination, policy: Self.policy(limit: 1000), progress: nil)
        }
        #expect(try fixture.copies().isEmpty)
    }

    @Test("a HEIC on standard input becomes stdin.jpg; the copy of the stream is not kept")
    func standardInput() async throws {
        let fixture = try IntakeFixture()
        defer { fixture.remove() }
        var pipe: [Int32] = [0, 0]
        #expect(makePipe(&pipe) == 0)
        _ = Self.heic.withUnsafeBytes { write(pipe[1], $0.baseAddress, $0.count) }
        close(pipe[1])
        defer { close(pipe[0]) }
        let converter = StandInConverter()
        let items = try await Self.intake(fixture, converter, standardInput: pipe[0]).load(
            [.standardInput], into: fixture.destination, policy: Self.policy(), progress: nil)
        #expect(items.first?.fileName == "stdin.jpg")
        #expect(try fixture.copies() == ["1-stdin.jpg"])
        #expect(converter.seen.withLock { $0.source } == Self.heic)
    }

    @Test("an entry made before the server's types were known is converted beside its copy, which stays")
    func convertedAfterIntake() async throws {
        let fixture = try IntakeFixture()
        defer { fixture.remove() }
        let converter = StandInConverter()
        let intake = Self.intake(fixture, converter)
        let path = try fixture.write("later.heic", Self.heic)
        let loaded = try #require(
            try await intake.load(
                [.file(path: path)], into: fixture.destination, policy: Self.policy(accepted: nil), progress: nil
            )
            .first)
        #expect(loaded.contentType == "image/heif")
        let takesHEIF = Self.policy(accepted: Samples.demoTypes + ["image/heif"])
        #expect(try await intake.convertToJPEG(loaded, index: 0, in: fixture.destination, policy: takesHEIF) == nil)
        let converted = try #require(
            try await intake.convertToJPEG(loaded, index: 0, in: fixture.destination, policy: Self.policy()))
        #expect(converted.fileName == "later.jpg" && converted.contentType == "image/jpeg")
        #expect(try fixture.copies() == ["1-later.heic", "1-later.jpg"])
        #expect(try fixture.copy(converted.storedName).starts(with: [0xFF, 0xD8]))
    }
}

/// `pipe(2)`: a read and a write descriptor.
func makePipe(_ fds: inout [Int32]) -> Int32 {
    fds.withUnsafeMutableBufferPointer { pipe($0.baseAddress!) }
}
