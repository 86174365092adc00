import Foundation
import ShareKitSystemTesting

/// A running child process that a test talks to line by line: a
/// `ShareTestHelper` command or any built program (``runProcess(_:_:environment:stdin:)``
/// runs to completion; many tests need several children alive at once, a
/// conversation with one of them, or to kill one mid-work).
public final class HelperProcess: @unchecked Sendable {
    /// What a finished helper left behind.
    public struct Outcome: Sendable {
        /// The exit status (128 + signal number when killed).
        public let status: Int32
        /// The rest of its standard output (after the lines already read).
        public let stdout: String
        /// Its standard error.
        public let stderr: String
    }

    private let child: SpawnedChild
    private let executable: String
    private let arguments: [String]
    private let mergeErrors: Bool
    private let output: FileHandle
    private let input: FileHandle
    private let finished = NSLock()
    private var outcome: Outcome?

    /// Starts `ShareTestHelper <arguments>`.
    /// - Parameters:
    ///   - arguments: the command and its arguments.
    ///   - environment: extra environment variables.
    /// - Throws: when the helper cannot be started.
    public convenience init(_ arguments: [String], environment: [String: String] = [:]) throws {
        try self.init(executable: BuiltProducts.path("ShareTestHelper"), arguments, environment: environment)
    }

    /// Starts any program.
    /// - Parameters:
    ///   - executable: the program's path (see ``BuiltProducts``).
    ///   - arguments: its arguments.
    ///   - environment: extra environment variables.
    /// - Throws: when the program cannot be started.
    ///   - mergeErrors: send standard error into the same pipe as standard
    ///     output, so ``readLine()`` sees log lines too (a daemon's log).
    public init(
        executable: String, _ arguments: [String], environment: [String: String] = [:], mergeErrors: Bool = false
    ) throws {
        child = try SpawnedChild(executable, arguments, environment: environment, mergeErrors: mergeErrors)
        self.executable = executable
        self.arguments = arguments
        self.mergeErrors = mergeErrors
        output = FileHandle(fileDescriptor: child.output, closeOnDealloc: false)
        input = FileHandle(fileDescriptor: child.input, closeOnDealloc: false)
    }

    /// The child's process id.
    public var pid: Int32 { child.pid }

    /// Sends a signal (SIGKILL in crash tests, SIGTERM for a graceful stop).
    /// - Parameter signal: the signal number.
    public func kill(_ signal: Int32) {
        _ = Foundation.kill(child.pid, signal)
    }

    /// Reads lines until one satisfies `predicate`, so a test waits for what
    /// a child prints instead of sleeping. A line that never comes fails the
    /// test after `limit` instead of holding the whole run forever.
    /// - Parameters:
    ///   - limit: the longest wait for the matching line (two minutes unless given).
    ///   - predicate: what the line must satisfy.
    /// - Returns: the matching line, or nil when output ended or the limit passed first.
    public func waitForLine(limit: Duration = .seconds(120), where predicate: (String) -> Bool) -> String? {
        let deadline = ContinuousClock.now + limit
        while let line = readLine(until: deadline) {
            if predicate(line) { return line }
        }
        return nil
    }

    /// Reads one line of standard output, waiting for it.
    /// - Parameter deadline: when to give up (nil: wait as long as it takes).
    /// - Returns: the line without its newline, or nil at end of file or at the deadline.
    public func readLine(until deadline: ContinuousClock.Instant? = nil) -> String? {
        var bytes: [UInt8] = []
        while true {
            if let deadline {
                let left = deadline - ContinuousClock.now
                let milliseconds = max(0, Int32(clamping: left.components.seconds * 1000 + 1))
                var poller = pollfd(fd: output.fileDescriptor, events: Int16(POLLIN), revents: 0)
                guard left > .zero, poll(&poller, 1, milliseconds) == 1 else { return nil }
            }
            let data = output.readData(ofLength: 1)
            guard let byte = data.first else {
                return bytes.isEmpty ? nil : transcribed(String(decoding: bytes, as: UTF8.self))
            }
            if byte == UInt8(ascii: "\n") { return transcribed(String(decoding: bytes, as: UTF8.self)) }
            bytes.append(byte)
        }
    }

    private func transcribed(_ line: String) -> String {
        TestTranscript.record(
            program: executable, arguments: arguments, stream: mergeErrors ? "output" : "stdout", text: line)
        return line
    }

    /// Writes one line to standard input.
    /// - Parameter line: the line, without newline.
    public func writeLine(_ line: String) {
        try? input.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Closes standard input, collects the rest of the output and waits for
    /// the exit (reaped with `wait4` here, at once). Call it once.
    /// - Returns: the outcome.
    public func finish() -> Outcome {
        finished.lock()
        defer { finished.unlock() }
        if let outcome { return outcome }
        close(child.input)
        let rest = readToEnd([child.output, child.errors])
        let (status, _) = child.wait()
        let result = Outcome(
            status: status, stdout: String(decoding: rest[0], as: UTF8.self),
            stderr: String(decoding: rest[1], as: UTF8.self))
        outcome = result
        TestTranscript.record(
            program: executable, arguments: arguments, stream: mergeErrors ? "output" : "stdout", text: result.stdout)
        TestTranscript.record(program: executable, arguments: arguments, stream: "stderr", text: result.stderr)
        return result
    }

    /// A helper the test forgot to finish is killed and reaped, so no test
    /// leaves a process (or a zombie) behind.
    deinit {
        if outcome == nil {
            _ = Foundation.kill(child.pid, SIGKILL)
            _ = finish()
        }
    }
}
