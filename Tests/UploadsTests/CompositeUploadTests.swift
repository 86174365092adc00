import Foundation
import ShareKitCore
import ShareKitCryptoInterface
import ShareKitOpenSSLCrypto
import ShareKitServerAPIInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import ShareKitUploads
import ShareKitUploadsInterface
import Testing

/// The uploader and the composite digest, against a real `share-server`
/// over loopback: one hashing pass (the parts only) when the server lists
/// `sha256-composite`, the plain whole-file SHA-256 when it does not.
@Suite("uploads: the composite digest")
struct CompositeUploadTests {
    static let composite = UploadLimits(
        fileMaxUploadBytes: 64 * 1024 * 1024, partSize: Int64(UploadFixture.partSize),
        digestAlgorithms: ["sha256", "sha256-composite"])

    /// The composite digest of a file, computed here from its bytes.
    static func compositeDigest(of source: UploadSource) throws -> String {
        let crypto = OpenSSLCryptoProvider()
        let data = try Data(contentsOf: URL(fileURLWithPath: source.path))
        var concatenated: [UInt8] = []
        var offset = 0
        repeat {
            let end = min(data.count, offset + UploadFixture.partSize)
            concatenated += try crypto.sha256(contentsOf: data.subdata(in: offset..<end))
            offset = end
        } while offset < data.count
        return try crypto.sha256(contentsOf: concatenated).map { String(format: "%02x", $0) }.joined()
    }

    /// The hashing passes among the events.
    static func passes(_ events: [StreamingUploader.Event]) -> [String] {
        events.compactMap { event in
            switch event {
            case .hashingPass(let size): return "whole+parts \(size.map(String.init) ?? "-")"
            case .compositeHashingPass(let size): return "parts \(size)"
            case .compositeRefused: return "refused"
            case .storedPartDigests(let size): return "stored \(size)"
            case .storedPartDigestsRefused: return "stored refused"
            default: return nil
            }
        }
    }

    @Test(
        "a server that lists sha256-composite: one pass over the parts, no whole-file SHA-256, the server completes the composite digest",
        arguments: [0, UploadFixture.partSize, UploadFixture.partSize * 5 + 77])
    func compositeAgainstANewServer(size: Int) async throws {
        let fixture = try await UploadFixture()
        defer { fixture.close() }
        let source = try fixture.file("new.bin", size: size)
        let events = Collector<StreamingUploader.Event>()
        let done = try await fixture.uploader { events.append($0) }.upload(
            source, limits: Self.composite, budget: nil, progress: nil, cancellation: nil)
        #expect(Self.passes(events.all) == ["parts \(UploadFixture.partSize)"])
        #expect(done.sha256 == (try Self.compositeDigest(of: source)))
        #expect(done.sha256 != (try fixture.sha256(of: source)), "not the plain SHA-256")
        #expect(done.sha256.count == 64)
        #expect(try await fixture.getUpload(done.uploadID).object["upload_state"] as? String == "complete")
    }

    /// The part digests of a file's bytes at the fixture's part size, as intake keeps them.
    static func partDigests(of source: UploadSource, bytes: Data? = nil) throws -> FilePartDigests {
        let crypto = OpenSSLCryptoProvider()
        let data = try bytes ?? Data(contentsOf: URL(fileURLWithPath: source.path))
        var digests: [[UInt8]] = []
        var offset = 0
        repeat {
            let end = min(data.count, offset + UploadFixture.partSize)
            digests.append(try crypto.sha256(contentsOf: data.subdata(in: offset..<end)))
            offset = end
        } while offset < data.count
        return try #require(
            FilePartDigests(partSize: Int64(UploadFixture.partSize), digests: digests, fileSize: source.size))
    }

    @Test(
        "part digests kept with the file (intake's) are used: no pass over the file, and the server completes the composite digest",
        arguments: [0, UploadFixture.partSize * 3 + 11])
    func storedDigestsWithoutAPass(size: Int) async throws {
        let fixture = try await UploadFixture()
        defer { fixture.close() }
        var source = try fixture.file("kept.bin", size: size)
        source.partDigests = try Self.partDigests(of: source)
        let events = Collector<StreamingUploader.Event>()
        let done = try await fixture.uploader { events.append($0) }.upload(
            source, limits: Self.composite, budget: nil, progress: nil, cancellation: nil)
        #expect(Self.passes(events.all) == ["stored \(UploadFixture.partSize)"])
        #expect(done.sha256 == (try Self.compositeDigest(of: source)))
        #expect(try await fixture.getUpload(done.uploadID).object["upload_state"] as? String == "complete")
    }

    @Test("kept part digests at another part size than the server's are not used: the file is hashed")
    func storedDigestsOfAnotherPartSize() async throws {
        let fixture = try await UploadFixture()
        defer { fixture.close() }
        var source = try fixture.file("other.bin", size: UploadFixture.partSize * 2 + 3)
        let data = try Data(contentsOf: URL(fileURLWithPath: source.path))
        let crypto = OpenSSLCryptoProvider()
        source.partDigests = FilePartDigests(
            partSize: Int64(data.count), digests: [try crypto.sha256(contentsOf: data)], fileSize: source.size)
        #expect(source.partDigests != nil)
        let events = Collector<StreamingUploader.Event>()
        let done = try await fixture.uploader { events.append($0) }.upload(
            source, limits: Self.composite, budget: nil, progress: nil, cancellation: nil)
        #expect(Self.passes(events.all) == ["parts \(UploadFixture.partSize)"])
        #expect(done.sha256 == (try Self.compositeDigest(of: source)))
    }

    @Test(
        "kept part digests that are not the file's: the server refuses a part, and the upload starts over hashing the file"
    )
    func wrongStoredDigestsFallBack() async throws {
        let fixture = try await UploadFixture()
        defer { fixture.close() }
        var source = try fixture.file("wrong.bin", size: UploadFixture.partSize * 4 + 1)
        // Digests of other bytes of the same size: well formed, and wrong.
        source.partDigests = try Self.partDigests(
            of: source, bytes: Data(repeating: 0x5A, count: Int(source.size)))
        let events = Collector<StreamingUploader.Event>()
        let done = try await fixture.uploader { events.append($0) }.upload(
            source, limits: Self.composite, budget: nil, progress: nil, cancellation: nil)
        #expect(
            Self.passes(events.all) == [
                "stored \(UploadFixture.partSize)", "stored refused", "parts \(UploadFixture.partSize)",
            ])
        #expect(done.sha256 == (try Self.compositeDigest(of: source)))
        #expect(try await fixture.getUpload(done.uploadID).object["upload_state"] as? String == "complete")
    }

    @Test("limits without sha256-composite (an older server): the plain whole-file SHA-256, as before")
    func plainWithoutTheForm() async throws {
        let fixture = try await UploadFixture()
        defer { fixture.close() }
        let source = try fixture.file("old.bin", size: UploadFixture.partSize * 3 + 5)
        let events = Collector<StreamingUploader.Event>()
        let limits = UploadLimits(
            fileMaxUploadBytes: 64 * 1024 * 1024, partSize: Int64(UploadFixture.partSize), digestAlgorithms: [])
        let done = try await fixture.uploader { events.append($0) }.upload(
            source, limits: limits, budget: nil, progress: nil, cancellation: nil)
        #expect(Self.passes(events.all) == ["whole+parts \(UploadFixture.partSize)"])
        #expect(done.sha256 == (try fixture.sha256(of: source)))
    }

    @Test("a server that does not take the composite form although the limits said so gets the whole-file SHA-256")
    func refusedFallsBack() async throws {
        var seed = UploadFixture.seed
        var limits = seed["limits"] as? [String: Any] ?? [:]
        limits["upload_digest_algorithms"] = ["sha256"]
        seed["limits"] = limits
        let fixture = try await UploadFixture(seed: seed)
        defer { fixture.close() }
        let source = try fixture.file("stale.bin", size: UploadFixture.partSize * 2 + 9)
        let events = Collector<StreamingUploader.Event>()
        let done = try await fixture.uploader { events.append($0) }.upload(
            source, limits: Self.composite, budget: nil, progress: nil, cancellation: nil)
        #expect(
            Self.passes(events.all) == [
                "parts \(UploadFixture.partSize)", "refused", "whole+parts \(UploadFixture.partSize)",
            ])
        #expect(done.sha256 == (try fixture.sha256(of: source)))
        #expect(try await fixture.getUpload(done.uploadID).object["upload_state"] as? String == "complete")
    }

    @Test("a composite upload cut short resumes from its record in another uploader without hashing again")
    func resumeWithoutHashing() async throws {
        let fixture = try await UploadFixture()
        defer { fixture.close() }
        let source = try fixture.file("resume.bin", size: UploadFixture.partSize * 4 + 1)
        // The first uploader's part 1 is held (one part at a time, so part 2
        // never releases it) until its budget runs out: the record with the
        // composite digest and the part digests stays for the next one.
        let gate = PartGate(inner: fixture.signed, held: 1, until: 2, limit: .seconds(4))
        let first = Collector<StreamingUploader.Event>()
        await #expect(throws: APIError.self) {
            _ = try await fixture.uploader(client: gate, partsInFlight: 1) { first.append($0) }.upload(
                source, limits: Self.composite, budget: .seconds(2), progress: nil, cancellation: nil)
        }
        #expect(Self.passes(first.all) == ["parts \(UploadFixture.partSize)"])
        let record = try #require(try fixture.records.record(for: source.identity, serverOrigin: fixture.origin))
        #expect(record.digestAlgorithm == "sha256-composite")
        let second = Collector<StreamingUploader.Event>()
        let done = try await fixture.uploader { second.append($0) }.upload(
            source, limits: Self.composite, budget: nil, progress: nil, cancellation: nil)
        #expect(Self.passes(second.all) == [], "the resumed upload hashes nothing")
        #expect(done.uploadID == record.uploadID)
        #expect(done.sha256 == (try Self.compositeDigest(of: source)))
    }

    @Test("a record naming a digest form this client does not send is not resumed: it is removed")
    func unknownFormInARecord() async throws {
        let fixture = try await UploadFixture()
        defer { fixture.close() }
        let source = try fixture.file("odd.bin", size: 100)
        for form in ["md5", "sha256-composite"] {
            try fixture.records.save(
                UploadRecord(
                    serverOrigin: fixture.origin, uploadID: "up_odd", identity: source.identity, partSize: 16_384,
                    partsCount: 1, sha256: String(repeating: "0", count: 64), partDigests: ["a"],
                    digestAlgorithm: form))
            let found = try fixture.records.record(for: source.identity, serverOrigin: fixture.origin)
            #expect((found == nil) == (form == "md5"), "\(form)")
        }
    }
}
