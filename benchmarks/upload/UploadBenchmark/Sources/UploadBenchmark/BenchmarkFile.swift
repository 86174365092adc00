import BenchmarkSupport
import Foundation
import Glibc

/// The file to upload: generated once per run in a temporary directory
/// (pseudo-random bytes, written in 1 MiB blocks) and removed afterwards,
/// or a file given with `--file`, which is left alone. The temporary
/// directory also holds the run's small files.
struct BenchmarkFile {
    let path: String
    let size: Int
    /// A private temporary directory for the run (removed by ``remove()``).
    let scratchDirectory: String
    private let generated: Bool

    init(options: Options) throws {
        let base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        var template = Array("\(base)/upload-benchmark.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw Child.Failure(description: "cannot make a directory in \(base)")
        }
        scratchDirectory = String(cString: made)
        if let given = options.file {
            var status = stat()
            guard stat(given, &status) == 0 else { throw Child.Failure(description: "cannot stat \(given)") }
            path = given
            size = Int(status.st_size)
            generated = false
            return
        }
        path = scratchDirectory + "/upload.bin"
        size = options.sizeMiB << 20
        generated = true
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Child.Failure(description: "cannot create \(path)") }
        defer { close(descriptor) }
        var state: UInt64 = 0x5EED
        var block = [UInt64](repeating: 0, count: (1 << 20) / 8)
        for _ in 0..<options.sizeMiB {
            for index in block.indices {
                // SplitMix64: fast, and no two blocks alike.
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = state
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                block[index] = z ^ (z >> 31)
            }
            let written = block.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written == 1 << 20 else { throw Child.Failure(description: "short write to \(path)") }
        }
    }

    /// Removes the temporary directory and what the run put there.
    func remove() {
        try? FileManager.default.removeItem(atPath: scratchDirectory)
    }
}
