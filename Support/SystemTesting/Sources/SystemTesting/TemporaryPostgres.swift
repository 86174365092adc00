public import Foundation
import Glibc

/// A real PostgreSQL server of a test's own: its cluster in a temporary
/// directory, reached through a Unix socket in that directory and nowhere
/// else (`listen_addresses` is empty, so no TCP port is opened), stopped and
/// removed by ``stop()``.
///
/// The cluster is made once per test process with `initdb` (trust
/// authentication, UTF-8, C locale) and copied for each server, which then
/// starts in a fraction of a second. PostgreSQL refuses to run as root, so
/// under root every PostgreSQL program runs as the `postgres` user
/// (`runuser -u postgres --`) in a directory that user owns. The server
/// runs in the foreground under a small shell whose standard input is a pipe
/// from this process: when the test stops it, or dies without stopping it,
/// the pipe ends and the shell shuts the server down, so no server outlives
/// its test process. Readiness is the server's own log line, read from its
/// output, never a sleep.
///
/// ```swift
/// let server = try TemporaryPostgres.start()
/// defer { server.stop() }
/// let uri = server.connectionURI(database: try server.createDatabase())  // postgresql://postgres@/test_…?host=…
/// ```
///
/// Where it cannot run, ``start(settings:)`` throws ``Unavailable`` with
/// the reason (the programs are missing; root without a `postgres` user;
/// an `/etc/passwd` that user cannot read), for the test to skip with.
public final class TemporaryPostgres: @unchecked Sendable {
    /// Why no server can run on this machine; tests skip with it.
    public struct Unavailable: Error, CustomStringConvertible, Sendable {
        /// The reason, and what would fix it.
        public let description: String
    }

    /// A server that failed to start or stop, with its log.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// What failed, and the server's last output.
        public let description: String
    }

    /// The directory that holds the cluster (`data`) and the socket directory.
    public let directory: String
    /// The directory of the server's Unix socket (`host=` in a connection string).
    public let socketDirectory: String
    /// The port, which names the socket file (`.s.PGSQL.5432`); no TCP port is opened.
    public let port = 5432
    /// The superuser role that connection strings log in as (trust authentication).
    public let user: String

    private let dataDirectory: String
    private let settings: [String: String]
    private let lock = NSLock()
    private var running: RunningServer?

    // MARK: Starting and stopping

    /// Starts a server on a fresh copy of this process's template cluster.
    /// - Parameter settings: extra server settings (`-c name=value`), e.g.
    ///   `["max_connections": "20"]`.
    /// - Returns: the running server.
    /// - Throws: ``Unavailable`` where PostgreSQL cannot run here; ``Failure``
    ///   (with the server's output) when it does not start.
    public static func start(settings: [String: String] = [:]) throws -> TemporaryPostgres {
        let installation = try Installation.current.get()
        let template = try Template.shared(installation)
        let base = try installation.makeOwnedDirectory(prefix: "sharekit-pg")
        do {
            let copied = try runProcess("/bin/cp", ["-a", template.dataDirectory, base + "/data"])
            guard copied.status == 0 else {
                throw Failure(description: "cannot copy the template cluster: \(copied.stderr)")
            }
            try installation.makeOwnedDirectory(base + "/socket")
            let server = TemporaryPostgres(
                directory: base, user: installation.serverUser, settings: settings)
            try server.launch(installation)
            return server
        } catch {
            try? FileManager.default.removeItem(atPath: base)
            throw error
        }
    }

    /// One server for the whole test process, started by the first caller
    /// and stopped (and removed) when the process exits: for suites whose
    /// tests each take a database of their own (``createDatabase(_:)``)
    /// rather than a server. A test that kills or restarts a server starts
    /// its own with ``start(settings:)``.
    /// - Returns: the server.
    /// - Throws: what ``start(settings:)`` throws (remembered for later callers).
    public static func shared() throws -> TemporaryPostgres {
        try sharedLock.withLock {
            if let sharedServer { return try sharedServer.get() }
            // Room for every test of a parallel run at once: each holds a
            // connection or two (a server process, psql, an admin command).
            let result = Result { try start(settings: ["max_connections": String(sharedMaxConnections)]) }
            sharedServer = result
            if case .success = result {
                atexit { TemporaryPostgres.stopShared() }
            }
            return try result.get()
        }
    }

    /// The connection limit of ``shared()``'s server.
    public static let sharedMaxConnections = 300

    private static let sharedLock = NSLock()
    nonisolated(unsafe) private static var sharedServer: Result<TemporaryPostgres, any Error>?
    nonisolated(unsafe) private static var databaseCounter = 0

    private static func stopShared() {
        if case .success(let server)? = sharedServer { server.stop() }
    }

    private init(directory: String, user: String, settings: [String: String]) {
        self.directory = directory
        dataDirectory = directory + "/data"
        socketDirectory = directory + "/socket"
        self.user = user
        self.settings = settings
    }

    deinit { stop() }

    /// Starts the server again after ``kill()`` or ``stopServer()``, on the
    /// same cluster and socket: what a restart after a crash looks like to clients.
    /// - Throws: ``Failure`` when it does not come up.
    public func restart() throws {
        try launch(try Installation.current.get())
    }

    private func launch(_ installation: Installation) throws {
        try lock.withLock {
            guard running == nil else { throw Failure(description: "the server is already running") }
            var arguments = [
                "-D", dataDirectory, "-k", socketDirectory, "-p", String(port), "-c", "listen_addresses=",
                // A test cluster: durability is not what is tested here.
                "-c", "fsync=off", "-c", "full_page_writes=off", "-c", "max_connections=40",
                "-c", "shared_buffers=16MB", "-c", "unix_socket_permissions=0700",
            ]
            for (name, value) in settings.sorted(by: { $0.key < $1.key }) { arguments += ["-c", "\(name)=\(value)"] }
            running = try RunningServer(installation, postgres: installation.binDirectory + "/postgres", arguments)
        }
    }

    /// Stops the server (a fast shutdown: open connections are ended) and
    /// waits until it and its processes are gone; the cluster stays for
    /// ``restart()``.
    public func stopServer() {
        let server = lock.withLock { () -> RunningServer? in
            defer { running = nil }
            return running
        }
        server?.stop()
    }

    /// Stops the server and removes its directory; idempotent.
    public func stop() {
        stopServer()
        if ProcessInfo.processInfo.environment["SHAREKIT_TEST_KEEP_DIRS"] == nil {
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// Kills the server the way a crash does: the postmaster and every one of
    /// its processes get `SIGKILL` at once (the postmaster is stopped first,
    /// so it cannot start another), and this returns once all of them are
    /// gone. The cluster stays; ``restart()`` recovers it.
    /// - Throws: ``Failure`` when the server is not running.
    public func kill() throws {
        guard
            let server = lock.withLock({ () -> RunningServer? in
                defer { running = nil }
                return running
            })
        else { throw Failure(description: "the server is not running") }
        guard let postmaster = postmasterPID else {
            throw Failure(description: "no postmaster.pid in \(dataDirectory)")
        }
        Glibc.kill(postmaster, SIGSTOP)
        let children = Self.children(of: postmaster)
        Glibc.kill(postmaster, SIGKILL)
        for child in children { Glibc.kill(child, SIGKILL) }
        // The shell reaps the postmaster once its input ends; the log pipe
        // ends when the last of the processes that share it has exited.
        server.stop()
    }

    /// Kills one server process with `SIGKILL` (a backend, given by
    /// `pg_backend_pid()`): the postmaster then ends every other connection
    /// and recovers, which ``waitUntilReady(times:)`` waits for.
    /// - Parameter pid: the process.
    public func killProcess(_ pid: pid_t) {
        Glibc.kill(pid, SIGKILL)
    }

    /// Waits until the server has said it is ready `times` times since it
    /// was (re)started: after a crash of one of its processes it recovers and
    /// says so again.
    /// - Parameters:
    ///   - times: how many ready lines to wait for.
    ///   - timeout: how long to wait at most.
    /// - Throws: ``Failure`` when the server exits or the time runs out first.
    public func waitUntilReady(times: Int = 1, timeout: Duration = .seconds(60)) throws {
        guard let server = lock.withLock({ running }) else { throw Failure(description: "the server is not running") }
        try server.waitForReady(times: times, timeout: timeout)
    }

    /// The postmaster's process id (from `postmaster.pid`), nil when not running.
    public var postmasterPID: pid_t? {
        guard let text = try? String(contentsOfFile: dataDirectory + "/postmaster.pid", encoding: .utf8),
            let first = text.split(separator: "\n").first
        else { return nil }
        return pid_t(first)
    }

    /// What the server printed so far (its log), for a failing test's message.
    public var log: String { lock.withLock { running?.output ?? "" } }

    // MARK: Clients

    /// A libpq connection URI for one database of the server.
    /// - Parameter database: the database name.
    /// - Returns: `postgresql://USER@/DATABASE?host=SOCKETDIR&port=5432`.
    public func connectionURI(database: String = "postgres") -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "/-._~"))
        let host = socketDirectory.addingPercentEncoding(withAllowedCharacters: allowed) ?? socketDirectory
        return "postgresql://\(user)@/\(database)?host=\(host)&port=\(port)"
    }

    /// Creates a database.
    /// - Parameter name: letters, digits and `_` only; nil picks a new name.
    /// - Returns: its name, for ``connectionURI(database:)``.
    /// - Throws: ``Failure`` when `psql` fails.
    @discardableResult
    public func createDatabase(_ name: String? = nil) throws -> String {
        let name =
            name
            ?? Self.sharedLock.withLock {
                Self.databaseCounter += 1
                return "test_\(getpid())_\(Self.databaseCounter)"
            }
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
            throw Failure(description: "database names here are letters, digits and _ only: \(name)")
        }
        _ = try psql("CREATE DATABASE \(name)")
        return name
    }

    /// Drops a database, ending its connections first.
    /// - Parameter name: the database.
    /// - Throws: ``Failure`` when `psql` fails.
    public func dropDatabase(_ name: String) throws {
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
            throw Failure(description: "database names here are letters, digits and _ only: \(name)")
        }
        _ = try psql("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// Runs SQL through `psql`, an independent client, and returns its
    /// unaligned, tuples-only output (`|` between columns, a line per row).
    /// - Parameters:
    ///   - sql: the statements.
    ///   - database: the database.
    /// - Returns: the output without the trailing newline.
    /// - Throws: ``Failure`` with `psql`'s message when it fails.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") throws -> String {
        let installation = try Installation.current.get()
        let result = try runProcess(
            installation.binDirectory + "/psql",
            [
                "-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-h", socketDirectory, "-p", String(port), "-U", user,
                "-d", database, "-c", sql,
            ], environment: ["PGCONNECT_TIMEOUT": "10"])
        guard result.status == 0 else { throw Failure(description: "psql failed: \(result.stderr)") }
        return result.stdout.hasSuffix("\n") ? String(result.stdout.dropLast()) : result.stdout
    }

    /// The processes whose parent is `pid` (from `/proc`).
    private static func children(of pid: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let candidate = pid_t(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // After "pid (name)": state, then the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == pid ? candidate : nil
        }
    }
}

// MARK: - The installation

extension TemporaryPostgres {
    /// Where PostgreSQL's programs are and which user runs them.
    struct Installation: Sendable {
        /// The directory of `initdb`, `postgres` and `psql`.
        let binDirectory: String
        /// The user the server runs as, and its role name.
        let serverUser: String
        /// Its uid and gid when this process is root (then programs run under `runuser`).
        let switchTo: (uid: uid_t, gid: gid_t, runuser: String)?

        /// The programs under the server user.
        func command(_ program: String, _ arguments: [String]) -> (String, [String]) {
            guard let switchTo else { return (program, arguments) }
            return (switchTo.runuser, ["-u", serverUser, "--", program] + arguments)
        }

        /// A new directory (mode 0700) owned by the server user.
        func makeOwnedDirectory(prefix: String) throws -> String {
            var base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
            // The socket path must fit sockaddr_un (108 bytes), and a server
            // run as another user must reach the directory: a TMPDIR of ours
            // may sit below folders of mode 0700 (the end-to-end run's).
            if base.utf8.count > 40 || switchTo != nil { base = "/tmp" }
            var template = Array("\(base)/\(prefix).XXXXXX".utf8CString)
            guard let made = mkdtemp(&template) else {
                throw Failure(description: "cannot make a directory in \(base): errno \(errno)")
            }
            let path = String(cString: made)
            try own(path)
            return path
        }

        /// Makes a directory (mode 0700) owned by the server user.
        func makeOwnedDirectory(_ path: String) throws {
            guard mkdir(path, 0o700) == 0 else { throw Failure(description: "cannot make \(path): errno \(errno)") }
            try own(path)
        }

        private func own(_ path: String) throws {
            guard let switchTo else { return }
            guard chown(path, switchTo.uid, switchTo.gid) == 0 else {
                throw Failure(description: "cannot give \(path) to \(serverUser): errno \(errno)")
            }
        }

        /// This machine's installation, or why there is none.
        static let current: Result<Installation, Unavailable> = Result { try find() }.mapError {
            $0 as? Unavailable ?? Unavailable(description: "\($0)")
        }

        private static func find() throws -> Installation {
            let binDirectory = try findBinDirectory()
            guard geteuid() == 0 else {
                let name = getpwuid(geteuid()).map { String(cString: $0.pointee.pw_name) } ?? "postgres"
                return Installation(binDirectory: binDirectory, serverUser: name, switchTo: nil)
            }
            guard let account = getpwnam("postgres") else {
                throw Unavailable(
                    description: "PostgreSQL refuses to run as root, and there is no 'postgres' user to run it as "
                        + "(Debian's postgresql package creates one)")
            }
            guard
                let runuser = [String](["/usr/sbin/runuser", "/sbin/runuser"]).first(where: { access($0, X_OK) == 0 })
            else {
                throw Unavailable(description: "PostgreSQL refuses to run as root, and runuser (util-linux) is missing")
            }
            var info = stat()
            if stat("/etc/passwd", &info) == 0, info.st_mode & 0o004 == 0 {
                throw Unavailable(
                    description: "/etc/passwd is mode \(String(info.st_mode & 0o777, radix: 8)), so initdb running as "
                        + "'postgres' cannot look up its own user ('could not look up effective user ID'); "
                        + "Debian's standard mode is 644 (chmod 644 /etc/passwd)")
            }
            return Installation(
                binDirectory: binDirectory, serverUser: "postgres",
                switchTo: (account.pointee.pw_uid, account.pointee.pw_gid, runuser))
        }

        /// `SHAREKIT_POSTGRES_BINDIR`, `pg_config --bindir`, or the newest
        /// `/usr/lib/postgresql/*/bin`: the first that has the server programs.
        private static func findBinDirectory() throws -> String {
            var candidates: [String] = []
            if let configured = ProcessInfo.processInfo.environment["SHAREKIT_POSTGRES_BINDIR"] {
                candidates.append(configured)
            }
            if access("/usr/bin/pg_config", X_OK) == 0,
                let result = try? runProcess("/usr/bin/pg_config", ["--bindir"]),
                result.status == 0
            {
                candidates.append(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
            candidates += versions.compactMap(Int.init).sorted(by: >).map { "/usr/lib/postgresql/\($0)/bin" }
            let programs = ["initdb", "postgres", "psql"]
            guard
                let found = candidates.first(where: { directory in
                    programs.allSatisfy { access(directory + "/" + $0, X_OK) == 0 }
                })
            else {
                throw Unavailable(
                    description: "PostgreSQL's server programs (initdb, postgres, psql) are not installed "
                        + "(looked in \(candidates.isEmpty ? "/usr/lib/postgresql/*/bin" : candidates.joined(separator: ", "))); "
                        + "on Debian: apt-get install postgresql, or set SHAREKIT_POSTGRES_BINDIR")
            }
            return found
        }
    }

    /// The cluster made once per test process, copied for every server.
    final class Template: @unchecked Sendable {
        let directory: String
        var dataDirectory: String { directory + "/data" }

        private init(directory: String) {
            self.directory = directory
        }

        nonisolated(unsafe) private static var made: Result<Template, any Error>?
        private static let lock = NSLock()

        /// The template, made by the first caller.
        static func shared(_ installation: Installation) throws -> Template {
            try lock.withLock {
                if let made { return try made.get() }
                let result = Result { try make(installation) }
                made = result
                if case .success(let template) = result {
                    pathToRemove = template.directory
                    atexit { TemporaryPostgres.Template.removeAtExit() }
                }
                return try result.get()
            }
        }

        nonisolated(unsafe) private static var pathToRemove: String?

        private static func removeAtExit() {
            if let pathToRemove { try? FileManager.default.removeItem(atPath: pathToRemove) }
        }

        private static func make(_ installation: Installation) throws -> Template {
            let directory = try installation.makeOwnedDirectory(prefix: "sharekit-pg-template")
            let (program, arguments) = installation.command(
                installation.binDirectory + "/initdb",
                [
                    "-D", directory + "/data", "-U", installation.serverUser, "--auth=trust", "-E", "UTF8",
                    // Small WAL segments: the cluster is copied for every server.
                    "--locale=C", "--no-sync", "--no-instructions", "--wal-segsize=1",
                ])
            let result = try runProcess(program, arguments, environment: ["LC_ALL": "C"])
            guard result.status == 0 else {
                try? FileManager.default.removeItem(atPath: directory)
                if result.stderr.contains("could not look up effective user ID") {
                    throw Unavailable(
                        description: "initdb as '\(installation.serverUser)' cannot look up its own user "
                            + "('could not look up effective user ID'): /etc/passwd is not readable to it; "
                            + "Debian's standard mode is 644 (chmod 644 /etc/passwd)")
                }
                throw Failure(description: "initdb failed (exit \(result.status)): \(result.stderr)")
            }
            return Template(directory: directory)
        }
    }
}

// MARK: - One run of the server

/// A server process under its watching shell, and the reader of its output.
private final class RunningServer: @unchecked Sendable {
    private let child: SpawnedChild
    private let condition = NSCondition()
    private var collected: [UInt8] = []
    private var readyLines = 0
    private var ended = false
    private var stopped = false
    private static let readyLine = Array("database system is ready to accept connections".utf8)

    /// Starts `postgres` with `arguments` and waits until it is ready.
    init(_ installation: TemporaryPostgres.Installation, postgres: String, _ arguments: [String]) throws {
        // The server runs in the background of a shell that waits for its
        // own input to end (the test stopped the server, or the test process
        // died): then it asks the server for a fast shutdown and waits for it.
        let script = """
            "$@" </dev/null &
            server=$!
            cat >/dev/null
            kill -INT "$server" 2>/dev/null
            wait "$server"
            """
        let (program, wrapperArguments) = installation.command("/bin/sh", ["-c", script, "sh", postgres] + arguments)
        child = try SpawnedChild(program, wrapperArguments, environment: ["LC_ALL": "C"], mergeErrors: true)
        let output = child.output
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 16384)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
                if n < 0, errno == EINTR { continue }
                condition.withLock {
                    if n > 0 {
                        // Only where a new line can end: the new bytes and the line's length before them.
                        let from = max(0, collected.count - Self.readyLine.count + 1)
                        collected += buffer[0..<n]
                        readyLines += Self.count(Self.readyLine, in: collected, from: from)
                    } else {
                        ended = true
                    }
                    condition.broadcast()
                }
                if n <= 0 { break }
            }
            close(output)
        }
        do {
            try waitForReady(times: 1, timeout: .seconds(60))
        } catch {
            stop()
            throw error
        }
    }

    /// What the server printed.
    var output: String { condition.withLock { String(decoding: collected, as: UTF8.self) } }

    /// Waits for the `times`-th ready line.
    func waitForReady(times: Int, timeout: Duration) throws {
        let deadline = Date().addingTimeInterval(
            Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18)
        try condition.withLock {
            while readyLines < times {
                if ended {
                    throw TemporaryPostgres.Failure(
                        description:
                            "the server exited before it was ready:\n\(String(decoding: collected, as: UTF8.self))")
                }
                if !condition.wait(until: deadline) {
                    throw TemporaryPostgres.Failure(
                        description: "the server was not ready within \(timeout):\n"
                            + String(decoding: collected, as: UTF8.self))
                }
            }
        }
    }

    /// Ends the shell's input and waits for the shell (which waits for the
    /// server) and for the end of the output, which comes when every
    /// process of the server has exited; idempotent.
    func stop() {
        let first = condition.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        close(child.input)
        _ = child.wait()
        // Bounded, so a process that never lets go of the output cannot hang the test run.
        let deadline = Date().addingTimeInterval(60)
        condition.withLock {
            while !ended, condition.wait(until: deadline) {}
        }
    }

    private static func count(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int {
        guard haystack.count >= needle.count else { return 0 }
        var found = 0
        var index = start
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0], Array(haystack[index..<index + needle.count]) == needle {
                found += 1
                index += needle.count
            } else {
                index += 1
            }
        }
        return found
    }
}
