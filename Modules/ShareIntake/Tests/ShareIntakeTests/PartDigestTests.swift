import Foundation
import ShareKitCore
import ShareKitCryptoInterface
import ShareKitIntake
import ShareKitIntakeInterface
import Testing

/// A stand-in for SHA-256 at the edge of these tests: a "digest" that
/// names exactly the bytes it was fed (their count and an FNV-1a hash,
/// padded to 32 bytes), so a test can tell which bytes of the file went
/// into which part without linking a crypto library.
struct ChecksumHasher: SHA256Hasher {
    private var count: UInt64 = 0
    private var fnv: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func update(_ buffer: UnsafeRawBufferPointer) {
        for byte in buffer {
            fnv = (fnv ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        count += UInt64(buffer.count)
    }

    mutating func finalize() throws -> [UInt8] {
        defer { self = ChecksumHasher() }
        return Self.digest(count: count, fnv: fnv)
    }

    /// The digest of `bytes`, computed at once.
    static func digest<Bytes: Collection>(of bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var hasher = ChecksumHasher()
        Array(bytes).withUnsafeBytes { hasher.update($0) }
        return digest(count: hasher.count, fnv: hasher.fnv)
    }

    private static func digest(count: UInt64, fnv: UInt64) -> [UInt8] {
        withUnsafeBytes(of: count.bigEndian) { Array($0) } + withUnsafeBytes(of: fnv.bigEndian) { Array($0) }
            + [UInt8](repeating: 0, count: 16)
    }
}

/// Makes ``ChecksumHasher``s; nothing else of a crypto provider is used by intake.
struct ChecksumCrypto: CryptoProvider {
    func sha256(_ buffer: UnsafeRawBufferPointer) throws -> [UInt8] {
        var hasher = ChecksumHasher()
        hasher.update(buffer)
        return try hasher.finalize()
    }
    func makeSHA256Hasher() throws -> any SHA256Hasher { ChecksumHasher() }
    func generateP256SigningKey() throws -> any P256SigningKey { throw CryptoError.invalidArgument("not in tests") }
    func importP256SigningKey(privateScalar: [UInt8]) throws -> any P256SigningKey {
        throw CryptoError.invalidArgument("not in tests")
    }
    func importP256VerifyingKey(_ publicKey: P256PublicKey) throws -> any P256VerifyingKey {
        throw CryptoError.invalidArgument("not in tests")
    }
    func randomBytes(count: Int) throws -> [UInt8] { throw CryptoError.randomUnavailable }
    func pbkdf2SHA256(password: [UInt8], salt: [UInt8], iterations: Int, length: Int) throws -> [UInt8] {
        throw CryptoError.invalidArgument("not in tests")
    }
}

@Suite("intake: the part digests of a copy, hashed while it is made")
struct PartDigestTests {
    /// Loads `bytes` as one file with a policy asking for part digests at `partSize`.
    static func load(_ bytes: [UInt8], partSize: Int64?, crypto: (any CryptoProvider)? = ChecksumCrypto()) async throws
        -> (IntakeItem, IntakeFixture)
    {
        let fixture = try IntakeFixture()
        var intake = fixture.intake
        intake.crypto = crypto
        let path = try fixture.write("data.bin", bytes)
        var policy = IntakePolicy(acceptedContentTypes: nil, loadTimeout: .seconds(30))
        policy.partDigestSize = partSize
        let item = try #require(
            try await intake.load([.file(path: path)], into: fixture.destination, policy: policy, progress: nil).first)
        return (item, fixture)
    }

    @Test(
        "each part of the copy is hashed, the short last one and the one empty part of an empty file included",
        arguments: [0, 1, 4096, 4096 * 3, 4096 * 3 + 17, (1 << 20) * 2 + 5])
    func partsOfTheCopy(size: Int) async throws {
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        let (item, fixture) = try await Self.load(bytes, partSize: 4096)
        defer { fixture.remove() }
        let digests = try #require(item.partDigests)
        #expect(digests.partSize == 4096)
        var expected: [[UInt8]] = []
        var offset = 0
        repeat {
            let end = min(bytes.count, offset + 4096)
            expected.append(ChecksumHasher.digest(of: bytes[offset..<end]))
            offset = end
        } while offset < bytes.count
        #expect(digests.digests == expected)
        #expect(try fixture.copy(item.storedName) == bytes)
    }

    @Test("without a part size in the policy, or without a crypto provider, a copy has no part digests")
    func notAskedFor() async throws {
        let bytes = [UInt8](repeating: 7, count: 10_000)
        let (unasked, first) = try await Self.load(bytes, partSize: nil)
        defer { first.remove() }
        #expect(unasked.partDigests == nil)
        let (unhashed, second) = try await Self.load(bytes, partSize: 4096, crypto: nil)
        defer { second.remove() }
        #expect(unhashed.partDigests == nil)
        #expect(try second.copy(unhashed.storedName) == bytes)
    }

    @Test("a file of more parts than are kept gets no digests, and is copied as ever")
    func tooManyParts() async throws {
        let size = FilePartDigests.maximumParts + 1
        let bytes = [UInt8](repeating: 1, count: size)
        let (item, fixture) = try await Self.load(bytes, partSize: 1)
        defer { fixture.remove() }
        #expect(item.partDigests == nil)
        #expect(item.size == Int64(size))
    }
}
