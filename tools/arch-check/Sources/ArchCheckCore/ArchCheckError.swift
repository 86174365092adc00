import Foundation

/// Why arch-check could not check the tree at all (exit status 2), as
/// opposed to finding violations (exit status 1).
public enum ArchCheckError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The command line was wrong; the message says how.
    case usage(String)
    /// There is no `Package.swift` under `--root` (or the current directory).
    case missingRootManifest(path: String)
    /// No `swift` executable was found to run `swift package dump-package`.
    case swiftNotFound
    /// `swift package dump-package` failed for a package: its manifest does
    /// not evaluate. `stderr` is what SwiftPM said.
    case dumpPackageFailed(package: String, status: Int32, stderr: String)
    /// `dump-package` ran longer than `--manifest-timeout`; it and the
    /// processes it started were killed.
    case manifestTimeout(package: String, seconds: Double)
    /// `dump-package` printed something that is not the expected JSON.
    case invalidDump(package: String, reason: String)
    /// A file or directory could not be read.
    case unreadable(path: String, reason: String)
    /// The configuration file is missing or wrong (malformed JSON, an
    /// unknown contract type or key, a contract without a name, a pattern
    /// that matches no target); the message names the problem.
    case configuration(file: String, message: String)

    /// A message a person can act on.
    public var description: String {
        switch self {
        case .usage(let message):
            return "usage error: \(message) (see arch-check --help)"
        case .missingRootManifest(let path):
            return "no Package.swift in or under \(path): run arch-check from the repository root or pass --root PATH"
        case .swiftNotFound:
            return "cannot find the swift executable on PATH; put the toolchain on PATH or pass --swift PATH"
        case .dumpPackageFailed(let package, let status, let stderr):
            let detail = stderr.trimmingCharacters(in: .whitespacesAndNewlines)
            return
                "swift package dump-package failed for \(package) (exit \(status)); fix its Package.swift:\n\(detail)"
        case .manifestTimeout(let package, let seconds):
            let limit = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
            return
                "swift package dump-package for \(package) did not finish within \(limit) s and was stopped with the processes it started; does the manifest loop? (raise the limit with --manifest-timeout SECONDS)"
        case .invalidDump(let package, let reason):
            return "unexpected dump-package output for \(package): \(reason)"
        case .unreadable(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .configuration(let file, let message):
            return "bad configuration \(file): \(message)"
        }
    }
}
