public import Foundation
import Glibc

/// A `share-server` started on 127.0.0.1:0 with a seed the benchmark wrote,
/// its request log in `directory/server.log`. The benchmark owns the
/// directory (and removes it); this only starts and stops the process.
public final class ShareServer {
    /// `http://127.0.0.1:PORT`.
    public let origin: String
    /// The port it listens on.
    public let port: UInt16
    /// Its pid.
    public let pid: pid_t
    /// The directory with the seed, the database and the request log.
    public let directory: String

    private var stopped = false
    private let stdoutPipe: Int32
    private let logPath: String

    /// Writes `seed` to `directory/seed.json` (nil: the built-in `demo`
    /// seed), starts the server with its
    /// database at `directory/server.sqlite` (or `database`) and waits (at
    /// most 60 s) for its `listening on` line.
    /// - Parameters:
    ///   - executable: the share-server binary.
    ///   - seed: the seed, as `JSONSerialization` takes it; nil for `--seed demo`.
    ///   - directory: an existing directory of the run (the caller removes it).
    ///   - database: what `--db` names (a PostgreSQL URI, another file);
    ///     nil for `directory/server.sqlite`.
    ///   - log: the file of its stderr; nil for `directory/server.log`
    ///     (several servers in one directory need one each).
    ///   - arguments: more options (`--public-origin`, `--uploads`).
    ///   - quiet: whether to pass `--quiet`.
    ///   - started: called with the server's pid as soon as it runs, before
    ///     its `listening on` line (for a signal handler that stops it).
    /// - Throws: when the seed cannot be written or the server does not start
    ///   (then it has been stopped, and the error ends with its log's tail).
    public init(
        executable: String, seed: [String: Any]?, directory: String, database: String? = nil, log: String? = nil,
        arguments extra: [String] = [], quiet: Bool, started: (pid_t) -> Void = { _ in }
    ) throws {
        self.directory = directory
        logPath = log ?? directory + "/server.log"
        var seedPath = "demo"
        if let seed {
            seedPath = directory + "/seed.json"
            try JSONSerialization.data(withJSONObject: seed, options: [.prettyPrinted, .sortedKeys])
                .write(to: URL(fileURLWithPath: seedPath))
        }
        let (readEnd, writeEnd) = try Pipe.make()
        var arguments = [
            "--listen", "127.0.0.1:0", "--db", database ?? directory + "/server.sqlite", "--seed", seedPath,
        ]
        arguments += extra
        if quiet { arguments.append("--quiet") }
        let pid: pid_t
        do {
            pid = try Spawn.start(
                executable, arguments, stdout: .descriptor(writeEnd), stderr: .file(logPath))
        } catch {
            close(readEnd)
            close(writeEnd)
            throw error
        }
        close(writeEnd)
        self.pid = pid
        stdoutPipe = readEnd
        started(pid)

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

    /// The last lines of the server's request log, for error reports.
    /// - Returns: them under a heading, or "" when there are none.
    public func logTail(lines: Int = 20) -> String {
        guard let log = try? String(contentsOfFile: logPath, encoding: .utf8) else { return "" }
        let tail = log.split(separator: "\n").suffix(lines).joined(separator: "\n")
        return tail.isEmpty ? "" : "server log (last lines):\n\(tail)"
    }

    /// Stops the server with SIGTERM (SIGKILL if it has not exited after 20 s).
    /// - Returns: its exit status (nil when already stopped).
    @discardableResult
    public func stop() -> Int32? {
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

    /// Builds share-server in release mode in the repository root (found from
    /// this file's path) with `swift build`, its output going to stderr.
    /// - Returns: the path of the built binary.
    /// - Throws: ``Spawn/Failure`` when the build fails.
    public static func buildRelease() throws -> String {
        try buildRelease(products: ["share-server"]) + "/share-server"
    }

    /// Builds products of the repository root (found from this file's path)
    /// in release mode with `swift build`, one after the other, its output
    /// going to stderr.
    /// - Parameter products: e.g. `["share-server", "share-daemon", "share"]`.
    /// - Returns: the directory of the built binaries.
    /// - Throws: ``Spawn/Failure`` when a build fails.
    public static func buildRelease(products: [String]) throws -> String {
        // …/benchmarks/BenchmarkSupport/Sources/BenchmarkSupport/ShareServer.swift
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<5 { root.deleteLastPathComponent() }
        for product in products {
            FileHandle.standardError.write(Data("building \(product) (release) in \(root.path)\n".utf8))
            try Spawn.run("swift", ["build", "-c", "release", "--product", product, "--package-path", root.path])
        }
        let bin = try Spawn.output("swift", ["build", "-c", "release", "--show-bin-path", "--package-path", root.path])
        return bin.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
