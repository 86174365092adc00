import Dispatch
import Foundation

/// Runs a subprocess to completion without blocking Swift's cooperative
/// thread pool, which has only as many threads as cores (two here).
///
/// The blocking reads and waits happen on threads of their own. Not on
/// Dispatch's global queue: on Linux its pool is sized to the cores too and
/// only grows about once a second when its threads block, so a dozen
/// concurrent `dump-package` runs would queue behind each other (and starve
/// the cooperative pool, which shares those workers).
enum ProcessRunner {
    /// What a finished subprocess left behind.
    struct Output: Sendable {
        let status: Int32
        let standardOutput: Data
        let standardError: Data
    }

    /// Runs `executable` with `arguments` and collects both output streams.
    /// - Parameter environment: the child's environment (the parent's when `nil`).
    /// - Throws: an error from `Process.run()` when the program cannot start.
    static func run(_ executable: String, arguments: [String], environment: [String: String]? = nil) async throws
        -> Output
    {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                do {
                    continuation.resume(
                        returning: try runBlocking(executable, arguments: arguments, environment: environment))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            thread.start()
        }
    }

    private static func runBlocking(_ executable: String, arguments: [String], environment: [String: String]?)
        throws -> Output
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Drain stderr on another thread while this one drains stdout, so a
        // chatty process cannot fill one pipe and stall.
        let errorData = ErrorBox()
        let done = DispatchSemaphore(value: 0)
        Thread {
            errorData.set(errPipe.fileHandleForReading.readDataToEndOfFile())
            done.signal()
        }.start()
        let outData = outPipe.fileHandleForReading.readDataToEndOfFile()
        done.wait()
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
