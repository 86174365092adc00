import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A running `ShareTestHelper sql-…` command that a test talks to line by
/// line and may kill with SIGKILL (TestSupport's `runProcess` only runs a
/// program to completion).
final class SQLHelperProcess {
    /// How a helper ended.
    struct Outcome {
        /// The exit status, or 128 + the signal number when killed.
        let status: Int32
        /// Standard output after the lines already read.
        let stdout: String
        /// Standard error.
        let stderr: String
    }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()

    /// Starts `ShareTestHelper <arguments>`.
    /// - Parameter arguments: the command and its arguments.
    /// - Throws: when the helper cannot be started.
    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("ShareTestHelper"))
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    /// Reads one line of standard output, waiting for it as long as it takes
    /// (the helper prints it when the event has happened; there is no sleep).
    /// - Returns: the line without its newline, or nil at end of file.
    func readLine() -> String? {
        var bytes: [UInt8] = []
        while true {
            guard let byte = output.fileHandleForReading.readData(ofLength: 1).first else {
                return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }

    /// Writes one line to standard input.
    /// - Parameter line: the line, without newline.
    func writeLine(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Kills the helper with SIGKILL, the way the system ends a process with
    /// no chance to clean up, and waits for it to be gone.
    /// - Returns: how it ended.
    func killAbruptly() -> Outcome {
        _ = kill(process.processIdentifier, SIGKILL)
        return finish()
    }

    /// Closes standard input, collects the output and waits for the exit.
    /// - Returns: how it ended.
    func finish() -> Outcome {
        try? input.fileHandleForWriting.close()
        // A killed or finishing helper closes its pipes, so these reads end.
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let status =
            process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return Outcome(
            status: status, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
    }
}
