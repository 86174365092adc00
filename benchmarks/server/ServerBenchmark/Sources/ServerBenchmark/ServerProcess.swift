import BenchmarkSupport
import Foundation
import Glibc
import ServerLoad

/// The pid of the running server, for the signal handler that stops it when
/// the benchmark itself is interrupted (0 when none runs).
nonisolated(unsafe) private var runningServerPID: pid_t = 0
/// The files of the run's directory and the directory itself (last), as C
/// strings made beforehand: the signal handler removes them with `unlink`
/// and `rmdir`, which are safe to call there. Nil-terminated.
nonisolated(unsafe) private var cleanupPaths: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?

/// A `share-server` started by the benchmark on 127.0.0.1:0 with a seed it
/// wrote (``ShareServer`` starts and stops the process), in a temporary
/// directory it removes again.
final class ServerProcess {
    /// `http://127.0.0.1:PORT`.
    let origin: String
    /// The port it listens on.
    let port: UInt16
    /// Its pid.
    let pid: pid_t
    /// The directory with the seed, the database and the request log.
    let directory: String
    /// The people, one per connection.
    let users: [Load.User]

    private var stopped = false
    private let server: ShareServer

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
        users = Load.users(count)
        let seed = Load.seed(users: users)
        let server: ShareServer
        do {
            server = try ShareServer(executable: executable, seed: seed, directory: directory, quiet: quiet) {
                runningServerPID = $0
            }
        } catch {
            runningServerPID = 0
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
        self.server = server
        origin = server.origin
        port = server.port
        pid = server.pid
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
    func cpuSeconds() -> Double? { Load.cpuSeconds(of: pid) }

    /// The last lines of the server's request log, for error reports.
    func logTail(lines: Int = 20) -> String { server.logTail(lines: lines) }

    /// Stops the server with SIGTERM (SIGKILL if it has not exited after 20 s)
    /// and removes the directory.
    /// - Returns: its exit status (nil when already stopped).
    @discardableResult
    func stop() -> Int32? {
        guard !stopped else { return nil }
        stopped = true
        let status = server.stop()
        runningServerPID = 0
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
