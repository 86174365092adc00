import Foundation
import ShareKitCryptoInterface
import ShareKitOpenSSLCrypto
import ShareKitSystemTesting
import ShareKitTestSupport

/// A file of deterministic pseudo-random bytes in a temporary directory,
/// and the SHA-256 of any region of it.
struct TestFile: Sendable {
    let directory: TemporaryDirectory
    let path: String
    let size: Int

    /// Writes `size` bytes in 1 MiB blocks (never the whole file in memory).
    /// - Parameters:
    ///   - size: the file's length.
    ///   - seed: makes different files different.
    init(size: Int, seed: UInt64 = 1) throws {
        directory = try TemporaryDirectory(prefix: "http-transport")
        path = directory.file("body.bin")
        self.size = size
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw TestFileError("cannot create \(path)") }
        defer { close(descriptor) }
        var generator = SplitMix64(seed: seed)
        var block = [UInt8](repeating: 0, count: 1 << 20)
        var written = 0
        while written < size {
            let count = min(block.count, size - written)
            block.withUnsafeMutableBytes { raw in
                let words = raw.bindMemory(to: UInt64.self)
                for index in 0..<(count + 7) / 8 where index < words.count { words[index] = generator.next() }
            }
            let result = block.withUnsafeBytes { write(descriptor, $0.baseAddress, count) }
            guard result == count else { throw TestFileError("short write to \(path)") }
            written += count
        }
    }

    /// The SHA-256 of `[offset, offset+length)`, read in blocks.
    func sha256(offset: Int = 0, length: Int? = nil) throws -> String {
        let length = length ?? size - offset
        var hasher = try OpenSSLCryptoProvider().makeSHA256Hasher()
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(offset))
        var remaining = length
        while remaining > 0 {
            let data = try handle.read(upToCount: min(remaining, 1 << 20)) ?? Data()
            guard !data.isEmpty else { throw TestFileError("\(path) ended early") }
            data.withUnsafeBytes { hasher.update($0) }
            remaining -= data.count
        }
        return Hex.string(try hasher.finalize())
    }

    /// The bytes of a small region.
    func bytes(offset: Int, length: Int) throws -> [UInt8] {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(offset))
        return Array(try handle.read(upToCount: length) ?? Data())
    }

    func remove() { directory.remove() }
}

/// A fast deterministic generator (Steele, Lea, Flood 2014).
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

struct TestFileError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
