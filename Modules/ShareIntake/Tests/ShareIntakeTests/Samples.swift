import Foundation
import ShareKitIntake
import ShareKitIntakeInterface
import ShareKitSystemTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Real file contents with minimal valid headers, written by the tests.
enum Samples {
    /// The PNG signature and an IHDR chunk of a 1x1 image.
    static let png: [UInt8] =
        [
            0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0,
            1, 8, 6, 0, 0, 0, 0x1F, 0x15, 0xC4, 0x89,
        ]
    /// A JFIF start of image.
    static let jpeg: [UInt8] =
        [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
    /// A PDF header, an empty object and a trailer.
    static let pdf = Array("%PDF-1.4\n%\u{E2}\u{E3}\u{CF}\u{D3}\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n".utf8)
    /// An empty ZIP archive (only the end of central directory record).
    static let zip: [UInt8] = [0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18)
    /// Plain text.
    static let text = Array("hello from a test\nsecond line\n".utf8)
    /// Python without a shebang: libmagic calls it text/plain.
    static let python = Array("import os\n\nprint(os.getcwd())\n".utf8)

    /// The demo server's accepted_content_types.
    static let demoTypes = ["text/plain", "image/jpeg", "image/png", "application/pdf"]
}

/// A temporary source folder, a destination folder and an intake over the
/// system's shared MIME database and libmagic.
struct IntakeFixture {
    let temporary: TemporaryDirectory
    let destination: String
    let catalog: FreedesktopMIMECatalog
    let intake: FileShareIntake

    init(standardInput: Int32 = 0) throws {
        // Writers in the tests may outlive a reader that gave up (a refused flood).
        signal(SIGPIPE, SIG_IGN)
        temporary = try TemporaryDirectory(prefix: "share-intake")
        destination = temporary.file("copies")
        try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: false)
        catalog = try FreedesktopMIMECatalog()
        intake = FileShareIntake(catalog: catalog, sniffer: MagicSniffer(), standardInputDescriptor: standardInput)
    }

    /// Writes a source file and returns its path.
    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = temporary.file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Makes a FIFO among the sources and returns its path.
    func fifo(_ name: String) throws -> String {
        let path = temporary.file(name)
        guard mkfifo(path, 0o600) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return path
    }

    /// The names in the destination folder.
    func copies() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: destination).sorted()
    }

    /// The bytes of a copy.
    func copy(_ storedName: String?) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: URL(fileURLWithPath: destination + "/" + (storedName ?? "missing"))))
    }

    func load(
        _ sources: [ShareItemSource], accepted: [String]? = Samples.demoTypes, limit: Int64? = nil,
        timeout: Duration = .seconds(10), inlineText: Int = 16 * 1024,
        progress: (@Sendable (IntakeProgress) -> Void)? = nil
    ) async throws(IntakeError) -> [IntakeItem] {
        let policy = IntakePolicy(
            acceptedContentTypes: accepted, fileMaxUploadBytes: limit, loadTimeout: timeout,
            maximumInlineTextBytes: inlineText)
        return try await intake.load(sources, into: destination, policy: policy, progress: progress)
    }

    /// Writes one file and loads it alone.
    func loadFile(_ name: String, _ bytes: [UInt8], accepted: [String]? = Samples.demoTypes) async throws -> IntakeItem
    {
        let path = try write(name, bytes)
        return try #require(try await load([.file(path: path)], accepted: accepted).first)
    }

    /// The error a load throws, or nil when it succeeds.
    func loadError(
        _ sources: [ShareItemSource], accepted: [String]? = Samples.demoTypes, limit: Int64? = nil,
        timeout: Duration = .seconds(10)
    ) async -> IntakeError? {
        do {
            _ = try await load(sources, accepted: accepted, limit: limit, timeout: timeout)
            return nil
        } catch {
            return error
        }
    }

    func remove() { temporary.remove() }
}
