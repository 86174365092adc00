import Foundation
import TestSupport

/// A running `ShareTestHelper` command that a test talks to line by line
/// (TestSupport's `runProcess` runs to completion; these tests need several
/// children alive at once and a conversation with one of them).
final class HelperProcess {
    /// What a finished helper left behind.
    struct Outcome {
        /// The exit status (128 + signal number when killed).
        let status: Int32
        /// The rest of its standard output (after the lines already read).
        let stdout: String
        /// Its standard error.
        let stderr: String
    }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()

    /// Starts `ShareTestHelper <arguments>`.
    /// - Parameters:
    ///   - arguments: the command and its arguments.
    ///   - environment: extra environment variables.
    /// - Throws: when the helper cannot be started.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("ShareTestHelper"))
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    /// Reads one line of standard output, waiting for it.
    /// - Returns: the line without its newline, or nil at end of file.
    func readLine() -> String? {
        var bytes: [UInt8] = []
        while true {
            let data = output.fileHandleForReading.readData(ofLength: 1)
            guard let byte = data.first else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }

    /// Writes one line to standard input.
    /// - Parameter line: the line, without newline.
    func writeLine(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Closes standard input, collects the output and waits for the exit.
    /// Children here print little, so reading one pipe after the other
    /// cannot block on the other being full.
    /// - Returns: the outcome.
    func finish() -> Outcome {
        try? input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return Outcome(status: status, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
    }
}
