import Glibc

/// Files of pseudo-random bytes for the benchmarks that send or copy a
/// file: SplitMix64, fast and with no two 1 MiB blocks alike, so that
/// neither compression nor deduplication can flatter a figure, and the same
/// seed gives the same bytes in every run.
public enum RandomFile {
    /// Writes `mebibytes` MiB to `path` (created or truncated, mode 0600).
    /// - Parameters:
    ///   - path: the file.
    ///   - mebibytes: its size in MiB.
    ///   - seed: where the generator starts.
    ///   - durable: fsync the file at the end (it is then on the disk, not
    ///     only dirty in the page cache, before what is measured begins).
    ///   - block: called with each 1 MiB block before it is written (to hash
    ///     the file as it is made, or to stop early by throwing).
    /// - Throws: `Spawn.Failure` when the file cannot be made or written, or
    ///   what `block` throws.
    public static func write(
        _ path: String, mebibytes: Int, seed: UInt64, durable: Bool = false,
        block: (UnsafeRawBufferPointer) throws -> Void = { _ in }
    ) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw Spawn.Failure(description: "cannot make \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var state = seed
        var words = [UInt64](repeating: 0, count: (1 << 20) / 8)
        for _ in 0..<mebibytes {
            for index in words.indices {
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = state
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                words[index] = z ^ (z >> 31)
            }
            let written = try words.withUnsafeBytes { bytes in
                try block(bytes)
                return Glibc.write(descriptor, bytes.baseAddress, bytes.count)
            }
            guard written == 1 << 20 else {
                throw Spawn.Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))")
            }
        }
        if durable, fsync(descriptor) != 0 { throw Spawn.Failure(description: "cannot fsync \(path)") }
    }
}
