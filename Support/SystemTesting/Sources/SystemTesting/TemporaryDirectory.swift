import Foundation

/// A fresh directory under the system's temporary directory, mode 0700,
/// removed by ``remove()``. Tests make their own so they never share state.
public struct TemporaryDirectory: Sendable {
    /// The absolute path.
    public let path: String

    /// Creates the directory.
    /// - Parameter prefix: a readable prefix for the name.
    /// - Throws: when the directory cannot be created.
    public init(prefix: String = "sharekit-test") throws {
        let base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        var template = Array("\(base)/\(prefix).XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: base])
        }
        path = String(cString: made)
    }

    /// A path inside the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Deletes the directory and everything in it, unless
    /// `SHAREKIT_TEST_KEEP_DIRS` is set (`tools/secrets-scan` keeps every
    /// log, manifest and state file of a run to search them for secrets).
    public func remove() {
        if ProcessInfo.processInfo.environment["SHAREKIT_TEST_KEEP_DIRS"] != nil { return }
        try? FileManager.default.removeItem(atPath: path)
    }
}
