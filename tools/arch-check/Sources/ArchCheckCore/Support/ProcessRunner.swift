import Dispatch
import Foundation

/// Runs a subprocess to completion without blocking Swift's cooperative
/// thread pool, which has only as many threads as cores (two here): the
/// blocking waits happen on Dispatch threads, so many `dump-package` runs
/// can be in flight at once.
enum ProcessRunner {
    /// What a finished subprocess left behind.
    struct Output: Sendable {
        let status: Int32
        let standardOutput: Data
        let standardError: Data
    }

    /// Runs `executable` with `arguments` and collects both output streams.
    /// - Throws: an error from `Process.run()` when the program cannot start.
    static func run(_ executable: String, arguments: [String]) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                do {
                    continuation.resume(returning: try runBlocking(executable, arguments: arguments))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    private static func runBlocking(_ executable: String, arguments: [String]) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Drain stderr on another thread while this one drains stdout, so a
        // chatty process cannot fill one pipe and stall.
        let errorData = ErrorBox()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errorData.set(errPipe.fileHandleForReading.readDataToEndOfFile())
            group.leave()
        }
        let outData = outPipe.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, standardOutput: outData, standardError: errorData.get())
    }

    /// Hands the stderr bytes from the reader thread to the waiting one.
    private final class ErrorBox: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func set(_ newValue: Data) { lock.withLock { data = newValue } }
        func get() -> Data { lock.withLock { data } }
    }
}
