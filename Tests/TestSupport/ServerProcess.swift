import Foundation
public import ShareKitSystemTesting

/// The database engine a test server runs on.
public enum ServerEngine: String, Sendable, CaseIterable, CustomStringConvertible {
    /// A SQLite file in the server's temporary directory.
    case sqlite
    /// A fresh database of this test process's PostgreSQL server (`TemporaryPostgres.shared()`).
    case postgresql

    /// The engine's name, as test arguments show it.
    public var description: String { rawValue }

    /// The engines this test run serves from: `SHAREKIT_TEST_ENGINES`, a
    /// comma-separated list (`sqlite`, `postgresql`), or both when unset.
    /// tools/test runs the SQLite half beside the other suites and the
    /// PostgreSQL half in a phase of its own, so that neither half's servers
    /// slow the other's timing assertions.
    public static var selected: Set<ServerEngine> {
        guard let list = ProcessInfo.processInfo.environment["SHAREKIT_TEST_ENGINES"], !list.isEmpty else {
            return Set(allCases)
        }
        return Set(list.split(separator: ",").compactMap { ServerEngine(rawValue: String($0)) })
    }
}

/// A real `share-server` process on 127.0.0.1, port 0, with its own
/// temporary database, started for one test and stopped by it.
///
/// Its stderr (the request log) goes to a file in the temporary directory
/// so a chatty server can never block on a full pipe, and tests can scan
/// the log (for secrets, for request lines). A test target that uses it
/// depends on the `ShareServer` executable, so that the program is built.
public final class ServerProcess: @unchecked Sendable {
    /// The server's temporary directory (database, log, seed).
    public let directory: TemporaryDirectory
    /// The SQLite database's path (with the PostgreSQL engine: the name
    /// the upload directory is derived from, `databasePath + ".uploads"`).
    public let databasePath: String
    /// The engine the server runs on.
    public let engine: ServerEngine
    /// What `--db` was given: the SQLite path, or the PostgreSQL URI.
    public let databaseArgument: String
    /// The PostgreSQL server and database name, nil on SQLite.
    public let postgres: (server: TemporaryPostgres, database: String)?
    /// The request log (the server's stderr).
    public let logPath: String
    /// `http://127.0.0.1:PORT` (or `https://…` with TLS options).
    public let origin: String
    private let child: SpawnedChild
    private let stdout: FileHandle
    private let reaped = NSLock()
    private var exitStatus: Int32?

    /// Starts a server and waits for its `listening on` line.
    /// - Parameters:
    ///   - engine: SQLite (the default) or PostgreSQL: then a new database of
    ///     `TemporaryPostgres.shared()`, or the one a stopped server in
    ///     `directory` used (its name is kept in the directory).
    ///   - seed: `demo` when nil, else a JSON seed object written to a file for this server.
    ///   - extraArguments: more command-line options (TLS).
    ///   - directory: the directory to use, a new temporary one when nil
    ///     (give the directory of a stopped server to start it again on its database).
    ///   - listen: the address to listen on; a port of 0 lets the system choose
    ///     (give the origin's `host:port` of a stopped server to bring it back where clients expect it).
    ///   - database: the `--db` value when the server is to share another
    ///     one's database (a second process of one deployment; give that
    ///     server's ``databaseArgument``); nil for a database of its own. A
    ///     shared database is left to its owner to drop.
    /// - Throws: ``ServerProcessError`` when the server does not start;
    ///   `TemporaryPostgres.Unavailable` when PostgreSQL cannot run here.
    public init(
        engine: ServerEngine = .sqlite, seed: [String: Any]? = nil, extraArguments: [String] = [],
        directory: TemporaryDirectory? = nil,
        listen: String = "127.0.0.1:0", database: String? = nil
    ) throws {
        let directory = try directory ?? TemporaryDirectory(prefix: "share-server")
        self.directory = directory
        databasePath = directory.file("server.db")
        logPath = directory.file("server.log")
        self.engine = engine
        var uploadsArguments: [String] = []
        if let database {
            databaseArgument = database
            postgres = nil
        } else {
            switch engine {
            case .sqlite:
                databaseArgument = databasePath
                postgres = nil
            case .postgresql:
                let server = try TemporaryPostgres.shared()
                let nameFile = directory.file("postgres-database")
                let name: String
                if let kept = try? String(contentsOfFile: nameFile, encoding: .utf8) {
                    name = kept
                } else {
                    name = try server.createDatabase()
                    try Data(name.utf8).write(to: URL(fileURLWithPath: nameFile))
                }
                postgres = (server, name)
                databaseArgument = server.connectionURI(database: name)
                uploadsArguments = ["--uploads", databasePath + ".uploads"]
            }
        }
        var seedArgument = "demo"
        if let seed {
            let seedPath = directory.file("seed.json")
            try JSONSerialization.data(withJSONObject: seed).write(to: URL(fileURLWithPath: seedPath))
            seedArgument = seedPath
        }
        // Spawned and reaped here rather than through Foundation's Process:
        // its waitUntilExit waits for an exit monitor that runs on the same
        // dispatch threads as the tests' tasks, and two tests stopping
        // servers at once on a 2-core machine held both threads and never
        // saw their servers end (the servers were zombies, the run hung).
        child = try SpawnedChild(
            BuiltProducts.path("share-server"),
            ["--listen", listen, "--db", databaseArgument, "--seed", seedArgument] + uploadsArguments
                + extraArguments,
            environment: [:], mergeErrors: false, errorFile: logPath)
        close(child.input)  // nothing to read: end of file at once
        stdout = FileHandle(fileDescriptor: child.output, closeOnDealloc: true)
        let line = ServerProcess.readLine(stdout)
        guard let line, line.hasPrefix("listening on ") else {
            Self.end(child, signal: SIGTERM)
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            throw ServerProcessError("share-server did not start: \(line ?? "<no output>") \(log)")
        }
        origin = String(line.dropFirst("listening on ".count))
    }

    /// Stops the server with SIGTERM and waits for it.
    /// - Parameter removeFiles: whether to delete its directory afterwards.
    /// - Returns: its exit status (128 + signal number when a signal ended it).
    @discardableResult
    public func stop(removeFiles: Bool = true) -> Int32 {
        let status = end(signal: SIGTERM)
        if removeFiles {
            directory.remove()
            if let postgres { try? postgres.server.dropDatabase(postgres.database) }
        }
        return status
    }

    /// Kills the server with SIGKILL (crash tests).
    public func kill9() {
        end(signal: SIGKILL)
    }

    /// Signals the server unless it was reaped already, and reaps it. Once
    /// reaped its pid may belong to another process: it is never signalled again.
    /// A server still running a minute after the signal is killed, and its
    /// status is then 137: a stop it ignored shows in the status (a test
    /// that checks it fails) instead of hanging the run.
    @discardableResult
    private func end(signal: Int32) -> Int32 {
        reaped.lock()
        defer { reaped.unlock() }
        if let exitStatus { return exitStatus }
        let status = Self.end(child, signal: signal)
        exitStatus = status
        return status
    }

    /// Signals a child that was not reaped yet and reaps it, killing it when
    /// it still runs a minute later (its status is then 137).
    @discardableResult
    private static func end(_ child: SpawnedChild, signal: Int32) -> Int32 {
        kill(child.pid, signal)
        if let ended = child.wait(limit: .seconds(60)) { return ended.status }
        kill(child.pid, SIGKILL)
        return child.wait().status
    }

    /// A server its test did not stop (a test that threw before its
    /// `defer`) is killed and reaped: no process or zombie is left behind.
    deinit {
        end(signal: SIGKILL)
    }

    /// The server's process id while it runs (to read its memory use in
    /// `/proc`); never signal it: ``stop(removeFiles:)`` reaps the process.
    public var pid: Int32 { child.pid }

    /// The request log written so far.
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Runs `share-server admin …` against this server's database.
    /// - Parameter arguments: the admin command and its options (without `--db`).
    /// - Returns: the finished command.
    /// - Throws: ``ChildProcessError`` when it cannot be started.
    public func admin(_ arguments: [String]) throws -> ProcessResult {
        try runProcess(BuiltProducts.path("share-server"), ["admin"] + arguments + ["--db", databaseArgument])
    }

    private static func readLine(_ handle: FileHandle) -> String? {
        var bytes: [UInt8] = []
        while true {
            let data = handle.readData(ofLength: 1)
            guard let byte = data.first else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }
}

/// The server could not be started.
public struct ServerProcessError: Error, CustomStringConvertible {
    /// What happened, with the server's log.
    public let description: String

    /// - Parameter description: what happened.
    public init(_ description: String) { self.description = description }
}
