import BenchmarkSupport
import Glibc

/// A child process started with ``Spawn`` (`posix_spawn` with an empty
/// signal mask and default actions: this process's worker threads block
/// most signals, and a child would inherit that, so a sink that ignores
/// SIGTERM would never stop), its stdout on a pipe, reaped with `waitpid`.
struct Child {
    typealias Failure = Spawn.Failure

    let pid: pid_t
    private let output: Int32

    /// Starts `executable` (searched in PATH when it has no slash).
    init(_ executable: String, _ arguments: [String]) throws {
        let (readEnd, writeEnd) = try Pipe.make()
        defer { close(writeEnd) }
        do {
            pid = try Spawn.start(executable, arguments, stdout: .descriptor(writeEnd), stderr: .inherit)
        } catch {
            close(readEnd)
            throw error
        }
        output = readEnd
    }

    /// Reads one line of the child's output.
    func readLine() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(output, &byte, 1) == 1 {
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// Reads everything the child writes until it closes its output.
    func readAll() -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Waits for the child to exit.
    /// - Returns: its exit status (128 + signal when killed).
    @discardableResult
    func wait() -> Int32 {
        let status = Spawn.wait(pid) ?? -1
        close(output)
        return status
    }

    /// Sends SIGTERM and waits.
    func stop() {
        kill(pid, SIGTERM)
        wait()
    }
}
