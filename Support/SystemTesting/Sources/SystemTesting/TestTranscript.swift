import Foundation

/// Everything the tests' programs print, kept on disk when
/// `SHAREKIT_TEST_TRANSCRIPTS` names a directory.
///
/// Tests keep a child's output in memory and show it only when an assertion
/// fails, so a token that a program printed in a passing test would be seen
/// by nobody. `tools/secrets-scan` sets this variable and searches the
/// transcripts with the logs and state files of the run.
public enum TestTranscript {
    private static let directory: String? = {
        guard let path = ProcessInfo.processInfo.environment["SHAREKIT_TEST_TRANSCRIPTS"], !path.isEmpty else {
            return nil
        }
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()
    private static let lock = NSLock()

    /// Appends what a program printed on one stream to this test process's
    /// transcript; does nothing unless transcripts are asked for, and never
    /// fails a test (a transcript is evidence for the scan, not a result).
    /// - Parameters:
    ///   - program: the program's path (its last component names it).
    ///   - arguments: its command line, as the transcript's heading.
    ///   - stream: `stdout`, `stderr` or `output` (both, merged).
    ///   - text: what it printed.
    public static func record(program: String, arguments: [String], stream: String, text: String) {
        guard let directory, !text.isEmpty else { return }
        let name = (program as NSString).lastPathComponent
        let entry = "== \(name) \(arguments.joined(separator: " ")) [\(stream)]\n\(text)\n"
        lock.lock()
        defer { lock.unlock() }
        let fd = open(directory + "/transcript-\(getpid()).log", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let bytes = Array(entry.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return }
            offset += n
        }
    }
}
