import Foundation
import Glibc

/// The pid of the running server, for the signal handler that stops it when
/// the benchmark itself is interrupted (0 when none runs).
nonisolated(unsafe) private var runningServerPID: pid_t = 0
/// The files of the run's directory and the directory itself (last), as C
/// strings made beforehand: the signal handler removes them with `unlink`
/// and `rmdir`, which are safe to call there. Nil-terminated.
nonisolated(unsafe) private var cleanupPaths: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?

/// A `share-server` started by the benchmark on 127.0.0.1:0 with a seed it
/// wrote, in a temporary directory it removes again.
final class ServerProcess {
    /// The people of the seed: one per connection.
    struct User {
        let username: String
        let password: String
    }

    /// `http://127.0.0.1:PORT`.
    let origin: String
    /// The port it listens on.
    let port: UInt16
    /// Its pid.
    let pid: pid_t
    /// The directory with the seed, the database and the request log.
    let directory: String
    /// The people, one per connection.
    let users: [User]
    /// The chat channel everyone can write, and a thread in it.
    static let channelID = "c-bench"
    static let threadID = "t-bench"

    private var stopped = false
    private let stdoutPipe: Int32

    /// Starts the server and waits for its `listening on` line.
    /// - Parameters:
    ///   - executable: the share-server binary.
    ///   - users: how many people to seed.
    ///   - quiet: whether to pass `--quiet`.
    ///   - parent: where to make the temporary directory.
    /// - Throws: when the seed cannot be written or the server does not start.
    init(executable: String, users count: Int, quiet: Bool, in parent: String) throws {
        var template = Array((parent + "/share-server-bench.XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw Spawn.Failure(description: "mkdtemp failed: \(String(cString: strerror(errno)))")
        }
        let directory = String(cString: made)
        self.directory = directory
        let files = ["seed.json", "server.sqlite", "server.sqlite-wal", "server.sqlite-shm", "server.log"]
        let removable = files.map { directory + "/" + $0 } + [directory + "/server.sqlite.uploads", directory]
        let paths = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: removable.count + 1)
        for (index, path) in removable.enumerated() { paths[index] = strdup(path) }
        paths[removable.count] = nil
        cleanupPaths = paths
        users = (1...count).map { User(username: "bench\($0)", password: "bench-password-\($0)") }
        let names = users.map(\.username)
        let seed: [String: Any] = [
            "users": users.map { ["username": $0.username, "password": $0.password] },
            "spaces": [
                [
                    "id": "s-bench", "name": "benchmark",
                    "channels": [
                        [
                            "id": Self.channelID, "name": "load", "kind": "chat", "readers": names,
                            "writers": names,
                        ]
                    ],
                ]
            ],
            "threads": [["id": Self.threadID, "channel_id": Self.channelID, "title": "benchmark thread"]],
            "tokens": ["access_ttl_seconds": 3600],
        ]
        let seedPath = directory + "/seed.json"
        let readEnd: Int32
        let writeEnd: Int32
        do {
            try JSONSerialization.data(withJSONObject: seed, options: [.prettyPrinted, .sortedKeys])
                .write(to: URL(fileURLWithPath: seedPath))
            (readEnd, writeEnd) = try Pipe.make()
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
        var arguments = ["--listen", "127.0.0.1:0", "--db", directory + "/server.sqlite", "--seed", seedPath]
        if quiet { arguments.append("--quiet") }
        let pid: pid_t
        do {
            pid = try Spawn.start(
                executable, arguments, stdout: .descriptor(writeEnd), stderr: .file(directory + "/server.log"))
        } catch {
            close(readEnd)
            close(writeEnd)
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
        close(writeEnd)
        self.pid = pid
        runningServerPID = pid
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
        guard text.hasPrefix(prefix), let colon = text.lastIndex(of: ":"),
            let port = UInt16(text[text.index(after: colon)...])
        else {
            origin = ""
            port = 0
            stop()
            throw Spawn.Failure(
                description: "share-server did not print 'listening on http://HOST:PORT' (got '\(text)')\n"
                    + logTail())
        }
        origin = String(text.dropFirst(prefix.count))
        self.port = port
    }

    deinit { stop() }

    /// The largest resident set the server has had (VmHWM), in bytes.
    func peakRSS() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            // "VmHWM:	   45312 kB"
            if let kilobytes = line.split(separator: " ").compactMap({ Int($0) }).first { return kilobytes * 1024 }
        }
        return nil
    }

    /// CPU time (user and system, all threads) the server has used, in seconds.
    func cpuSeconds() -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm)": state is field 3, utime 14, stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The last lines of the server's request log, for error reports.
    func logTail(lines: Int = 20) -> String {
        guard let log = try? String(contentsOfFile: directory + "/server.log", encoding: .utf8) else { return "" }
        let tail = log.split(separator: "\n").suffix(lines).joined(separator: "\n")
        return tail.isEmpty ? "" : "server log (last lines):\n\(tail)"
    }

    /// Stops the server with SIGTERM (SIGKILL if it has not exited after 20 s)
    /// and removes the directory.
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
        runningServerPID = 0
        close(stdoutPipe)
        try? FileManager.default.removeItem(atPath: directory)
        if let paths = cleanupPaths {
            cleanupPaths = nil
            var index = 0
            while let path = paths[index] {
                free(path)
                index += 1
            }
            paths.deallocate()
        }
        return status
    }

    /// Makes SIGINT, SIGTERM and SIGHUP of the benchmark stop the server and
    /// remove the run's directory before the benchmark exits, and ignores SIGPIPE (a socket the server
    /// closed is an error the client reports, not a reason to die).
    static func installSignalHandlers() {
        signal(SIGPIPE, SIG_IGN)
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number) { received in
                let pid = runningServerPID
                if pid > 0 {
                    kill(pid, SIGTERM)
                    var status: Int32 = 0
                    waitpid(pid, &status, 0)
                }
                if let paths = cleanupPaths {
                    // Files first, then the (empty) uploads directory and the run's directory.
                    var index = 0
                    while let path = paths[index] {
                        if unlink(path) != 0 { rmdir(path) }
                        index += 1
                    }
                }
                _exit(128 + received)
            }
        }
    }
}
