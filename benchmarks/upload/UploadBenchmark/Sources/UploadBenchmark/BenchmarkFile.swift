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
        try RandomFile.write(path, mebibytes: options.sizeMiB, seed: 0x5EED)
    }

    /// Removes the temporary directory and what the run put there.
    func remove() {
        try? FileManager.default.removeItem(atPath: scratchDirectory)
    }
}
