import Foundation
import Glibc

/// A `share-server` started on 127.0.0.1:0 with a seed the benchmark wrote
/// (one user, 3 GiB `file_max_upload_bytes`, 8 MiB parts,
/// `application/octet-stream` accepted, access tokens valid for an hour),
/// its database and request log in `directory`.
final class ServerProcess {
    static let username = "bench"
    static let password = "bench-password"
    static let partSize = 8 << 20

    /// `http://127.0.0.1:PORT`.
    let origin: String
    /// Its pid.
    let pid: pid_t
    /// The directory with the seed, the database, the stored parts and the log.
    let directory: String

    private var stopped = false
    private let stdoutPipe: Int32

    /// Starts the server and waits for its `listening on` line.
    /// - Parameters:
    ///   - executable: the share-server binary.
    ///   - directory: an existing directory of the run (the caller removes it).
    ///   - quiet: whether to pass `--quiet`.
    init(executable: String, directory: String, quiet: Bool) throws {
        self.directory = directory
        let seed: [String: Any] = [
            "users": [["username": Self.username, "password": Self.password]],
            "limits": ["file_max_upload_bytes": 3 << 30, "upload_part_size": Self.partSize],
            "accepted_content_types": ["application/octet-stream", "text/plain"],
            "tokens": ["access_ttl_seconds": 3600],
        ]
        let seedPath = directory + "/seed.json"
        try JSONSerialization.data(withJSONObject: seed, options: [.prettyPrinted, .sortedKeys])
            .write(to: URL(fileURLWithPath: seedPath))
        let (readEnd, writeEnd) = try Pipe.make()
        var arguments = ["--listen", "127.0.0.1:0", "--db", directory + "/server.sqlite", "--seed", seedPath]
        if quiet { arguments.append("--quiet") }
        let pid: pid_t
        do {
            pid = try Spawn.start(
                executable, arguments, stdout: .descriptor(writeEnd), stderr: .file(directory + "/server.log"))
        } catch {
            close(readEnd)
            close(writeEnd)
            throw error
        }
        close(writeEnd)
        self.pid = pid
        stdoutPipe = readEnd

        // The first line on stdout: "listening on http://127.0.0.1:PORT".
        var line: [UInt8] = []
        let deadline = Clock.nanoseconds() + 60_000_000_000
        var byte: UInt8 = 0
        while line.last != 0x0A {
            let left = Int64(deadline) - Int64(Clock.nanoseconds())
            var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            let ready = left > 0 ? poll(&descriptor, 1, Int32(left / 1_000_000)) : 0
            if ready < 0, errno == EINTR { continue }
            guard ready > 0, read(readEnd, &byte, 1) == 1 else { break }
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let prefix = "listening on "
        guard text.hasPrefix(prefix) else {
            origin = ""
            stop()
            throw Spawn.Failure(
                description: "share-server did not print 'listening on http://HOST:PORT' (got '\(text)')\n"
                    + logTail())
        }
        origin = String(text.dropFirst(prefix.count))
    }

    deinit { stop() }

    /// The last lines of the server's request log, for error reports.
    func logTail(lines: Int = 20) -> String {
        guard let log = try? String(contentsOfFile: directory + "/server.log", encoding: .utf8) else { return "" }
        let tail = log.split(separator: "\n").suffix(lines).joined(separator: "\n")
        return tail.isEmpty ? "" : "server log (last lines):\n\(tail)"
    }

    /// Stops the server with SIGTERM (SIGKILL if it has not exited after 20 s).
    /// - Returns: its exit status (nil when already stopped).
    @discardableResult
    func stop() -> Int32? {
        guard !stopped else { return nil }
        stopped = true
        kill(pid, SIGTERM)
        var status = Spawn.wait(pid, timeout: 20)
        if status == nil {
            kill(pid, SIGKILL)
            status = Spawn.wait(pid)
        }
        close(stdoutPipe)
        return status
    }
}
