import ArchCheckCore
import Foundation

/// Runs the checker at most once per tree during a test run, so that
/// several tests can look at one result without dumping the manifests
/// again (each dump costs a few tenths of a second).
actor CheckerRuns {
    /// The shared instance for the whole test run.
    static let shared = CheckerRuns()

    private var runs: [String: Task<CheckResult, any Error>] = [:]

    /// The core API's result for the tree at `root`.
    func result(root: String) async throws -> CheckResult {
        if let run = runs[root] {
            return try await run.value
        }
        let run = Task {
            var options = CommandLineOptions()
            options.root = root
            return try await ArchCheckCommand.check(options)
        }
        runs[root] = run
        return try await run.value
    }

    /// The core API's result for a fixture tree.
    func result(fixture: String) async throws -> CheckResult {
        try await result(root: TestPaths.fixture(fixture))
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
func runArchCheck(_ arguments: [String], currentDirectory: String? = nil) async throws -> ProcessResult {
    let executable = try TestPaths.executable()
    // A thread of its own for the blocking waits (see ProcessRunner on why
    // not Dispatch's global queue).
    return try await withCheckedThrowingContinuation { continuation in
        Thread {
            do {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: executable)
                process.arguments = arguments
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
