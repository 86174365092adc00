import ArchCheckCore
import Foundation

/// Runs the checker at most once per tree during a test run, so that
/// several tests can look at one result without dumping the manifests
/// again (each dump costs a few tenths of a second).
actor CheckerRuns {
    /// The shared instance for the whole test run.
    static let shared = CheckerRuns()

    private var runs: [String: Task<CheckResult, any Error>] = [:]

    /// The core API's result for the tree at `root` with the configuration
    /// `config` (default: the root's `.arch-check.json`).
    func result(root: String, config: String? = nil) async throws -> CheckResult {
        let key = root + "|" + (config ?? "")
        if let run = runs[key] {
            return try await run.value
        }
        let run = Task {
            var options = CommandLineOptions()
            options.root = root
            options.config = config
            return try await ArchCheckCommand.check(options)
        }
        runs[key] = run
        return try await run.value
    }

    /// The core API's result for a fixture tree: with its own configuration
    /// if it has one, else with the repository's rules
    /// (`Fixtures/sharekit-rules.json`).
    func result(fixture: String) async throws -> CheckResult {
        let root = TestPaths.fixture(fixture)
        let own = FileManager.default.fileExists(atPath: root + "/" + Configuration.defaultFileName)
        return try await result(root: root, config: own ? nil : TestPaths.fixture("sharekit-rules.json"))
    }
}

/// What a finished `arch-check` process printed.
struct ProcessResult: Sendable {
    let status: Int32
    let standardOutput: String
    let standardError: String

    /// Standard output split into lines, without the empty last one.
    var outputLines: [String] {
        standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter {
            !$0.isEmpty
        }
    }
}

/// Runs the built executable as a subprocess, as CI and developers do.
/// - Parameter environment: variables set for the child on top of this
///   process's environment.
func runArchCheck(_ arguments: [String], currentDirectory: String? = nil, environment: [String: String] = [:])
    async throws -> ProcessResult
{
    let executable = try TestPaths.executable()
    // A thread of its own for the blocking waits (see ProcessRunner on why
    // not Dispatch's global queue).
    return try await withCheckedThrowingContinuation { continuation in
        Thread {
            do {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: executable)
                process.arguments = arguments
                process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
                if let currentDirectory {
                    process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory)
                }
                let out = Pipe()
                let err = Pipe()
                process.standardOutput = out
                process.standardError = err
                try process.run()
                let done = DispatchSemaphore(value: 0)
                let errorBox = DataBox()
                Thread {
                    errorBox.data = err.fileHandleForReading.readDataToEndOfFile()
                    done.signal()
                }.start()
                let output = out.fileHandleForReading.readDataToEndOfFile()
                done.wait()
                process.waitUntilExit()
                continuation.resume(
                    returning: ProcessResult(
                        status: process.terminationStatus,
                        standardOutput: String(decoding: output, as: UTF8.self),
                        standardError: String(decoding: errorBox.data, as: UTF8.self)))
            } catch {
                continuation.resume(throwing: error)
            }
        }.start()
    }
}

/// Carries bytes from the stderr reader thread (synchronised by the
/// semaphore).
private final class DataBox: @unchecked Sendable {
    var data = Data()
}
