import BenchmarkSupport
import Foundation
import Glibc
import ServerLoad
import ShareKitDPoP
import ShareKitOpenSSLCrypto
import ShareKitSystemTesting

/// createMessage with full DPoP verification against one, two and then
/// three `share-server` processes on one PostgreSQL database (the connections
/// spread over the processes in turn, as a load balancer would), and
/// PostgreSQL's own one-row commits/s measured with `pgbench` on the same
/// server before and after them, so the rates read as a fraction of what
/// the storage commits alone, and the second process's gain as a ratio.
struct PostgresBenchmark {
    let options: Options

    /// The origin every process serves (`--public-origin`) and every proof
    /// names: the address of a load balancer in front of them.
    static let origin = "http://127.0.0.1:8080"
    /// Seconds of load before each window.
    let warmUpSeconds = 1.0
    /// pgbench's clients (`-c`).
    static let pgbenchClients = 8
    /// The least fraction of pgbench's one-row commits/s that two processes
    /// must reach (`GOAL postgres-2-vs-pgbench`).
    static let twoProcessesGoal = 0.25

    /// A program the benchmark needs is not installed: it skips, saying which.
    struct Missing: Error, CustomStringConvertible {
        let description: String
    }

    /// One window's figures.
    struct Outcome {
        let processes: Int
        let requestsPerSecond: Double
        let serverCPUPerRequest: Double
    }

    func run() throws {
        let pgbench: String
        let postgres: TemporaryPostgres
        do {
            pgbench = try Self.findPgbench()
            // PostgreSQL as deployed: durable commits (the test clusters turn fsync off).
            postgres = try TemporaryPostgres.start(settings: [
                "fsync": "on", "full_page_writes": "on", "synchronous_commit": "on", "max_connections": "60",
            ])
        } catch let unavailable as TemporaryPostgres.Unavailable {
            say("skipped: \(unavailable.description)")
            return
        } catch let missing as Missing {
            say("skipped: \(missing.description)")
            return
        }
        defer { postgres.stop() }
        let executable = try options.server ?? ShareServer.buildRelease()
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw Spawn.Failure(description: "\(executable) is not an executable file")
        }
        let directory = try RunDirectory.make(parent: options.databaseDirectory, prefix: "postgres-bench")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        RunningServers.installSignalHandlers()

        let version = try postgres.psql("SHOW server_version")
        let durability = try ["fsync", "full_page_writes", "synchronous_commit"].map {
            "\($0)=\(try postgres.psql("SHOW \($0)"))"
        }
        say(
            "PostgreSQL \(version) in \(postgres.directory), Unix socket only, \(durability.joined(separator: " ")); "
                + "share-server \(executable)")
        say(
            "machine: \(ProcessInfo.processInfo.activeProcessorCount) cores; the client, the servers, PostgreSQL "
                + "and pgbench share them")

        let reference = try PgbenchReference(postgres: postgres, pgbench: pgbench, clients: Self.pgbenchClients)
        let before = try reference.measure(seconds: options.pgbenchSeconds)
        let one = try measure(processes: 1, postgres: postgres, executable: executable, directory: directory)
        let two = try measure(processes: 2, postgres: postgres, executable: executable, directory: directory)
        let three = try measure(processes: 3, postgres: postgres, executable: executable, directory: directory)
        let after = try reference.measure(seconds: options.pgbenchSeconds)
        let commits = (before + after) / 2

        say(
            line("pgbench commits/s (1-row INSERT, \(Self.pgbenchClients) clients)", commits)
                + String(format: "   (before the windows %.1f, after them %.1f)", before, after))
        say(
            String(
                format: "ratio requests/s 2 processes : 1 process = %.3f   (%.1f against %.1f; server CPU per "
                    + "request %.0f µs against %.0f µs)", two.requestsPerSecond / one.requestsPerSecond,
                two.requestsPerSecond, one.requestsPerSecond, two.serverCPUPerRequest, one.serverCPUPerRequest))
        say(
            String(
                format: "ratio requests/s (1 process) : pgbench commits/s = %.3f   (createMessage : what "
                    + "PostgreSQL commits alone)", one.requestsPerSecond / commits))
        say(
            String(
                format: "ratio requests/s (2 processes) : pgbench commits/s = %.3f", two.requestsPerSecond / commits))
        say(
            String(
                format: "ratio requests/s 3 processes : 2 processes = %.3f   (%.1f against %.1f; server CPU per "
                    + "request %.0f µs against %.0f µs)", three.requestsPerSecond / two.requestsPerSecond,
                three.requestsPerSecond, two.requestsPerSecond, three.serverCPUPerRequest, two.serverCPUPerRequest))
        say(
            Goal.line(
                id: "postgres-2-vs-pgbench", value: two.requestsPerSecond / commits, unit: "x", op: ">=",
                target: Self.twoProcessesGoal,
                explanation: String(
                    format: "createMessage on 2 processes %.1f requests/s against pgbench's %.1f one-row commits/s "
                        + "on the same PostgreSQL", two.requestsPerSecond, commits)))
        say(
            Goal.line(
                id: "postgres-3-vs-2", value: three.requestsPerSecond / two.requestsPerSecond, unit: "x", op: ">",
                target: 1,
                explanation: String(
                    format: "createMessage on 3 processes %.1f requests/s against 2 processes %.1f",
                    three.requestsPerSecond, two.requestsPerSecond)))
    }

    /// Starts `processes` servers on a new database, logs one user in per
    /// connection (connection i on process i mod `processes`), warms up,
    /// and drives the window.
    private func measure(processes: Int, postgres: TemporaryPostgres, executable: String, directory: String)
        throws -> Outcome
    {
        let database = try postgres.createDatabase("bench_\(processes)")
        let uploads = directory + "/uploads-\(processes)"
        guard mkdir(uploads, 0o700) == 0 else {
            throw Spawn.Failure(description: "cannot make \(uploads): \(String(cString: strerror(errno)))")
        }
        let users = Load.users(options.connections)
        var servers: [ShareServer] = []
        defer {
            for server in servers { server.stop() }
            RunningServers.clear()
        }
        for index in 1...processes {
            let server = try ShareServer(
                executable: executable, seed: Load.seed(users: users), directory: directory,
                database: postgres.connectionURI(database: database),
                log: directory + "/server-\(processes)-\(index).log",
                arguments: ["--uploads", uploads, "--public-origin", Self.origin], quiet: true,
                started: { RunningServers.add($0) })
            servers.append(server)
        }
        do {
            return try drive(servers, users: users)
        } catch {
            let tails = servers.map { $0.logTail() }.filter { !$0.isEmpty }
            throw Spawn.Failure(description: ([String(describing: error)] + tails).joined(separator: "\n"))
        }
    }

    private func drive(_ servers: [ShareServer], users: [Load.User]) throws -> Outcome {
        let processes = servers.count
        let connections = users.count
        let crypto = OpenSSLCryptoProvider()
        var sessions: [Load.Session] = []
        for (index, user) in users.enumerated() {
            let connection = try HTTPConnection(port: servers[index % processes].port)
            let signer = try ES256ProofSigner(key: crypto.generateP256SigningKey(), crypto: crypto)
            let token = try Load.login(connection, user, signer: signer, origin: Self.origin)
            sessions.append(Load.Session(connection: connection, signer: signer, token: token))
        }
        let serverCPU = { servers.reduce(0.0) { $0 + (Load.cpuSeconds(of: $1.pid) ?? 0) } }

        // Warm-up: one request per connection that must be answered 201,
        // then a second of load that warms the servers and PostgreSQL and
        // tells how many requests the window will need.
        let warmUpPools = try Load.makePools(sessions, count: 400, origin: Self.origin, phase: "w")
        let warmUpWorkers = zip(sessions, warmUpPools).map { LoadWorker(connection: $0.0.connection, pool: $0.1) }
        for worker in warmUpWorkers { try worker.check(1) }
        let warmUpWindow = Load.drive(warmUpWorkers, seconds: warmUpSeconds, serverCPU: serverCPU)
        let warmUpRate = Double(Load.Tally(warmUpWorkers).created) / warmUpWindow.elapsed(warmUpWorkers)

        // Three times what the warm-up rate needs, so that no connection runs out.
        let perConnection = min(
            20_000, Int((warmUpRate * 3 / Double(connections) + 50) * options.seconds.rounded(.up)))
        let (pools, _) = try Load.makeWindowPools(
            sessions, count: perConnection, origin: Self.origin, seconds: options.seconds)
        let workers = zip(sessions, pools).map { LoadWorker(connection: $0.0.connection, pool: $0.1) }
        let window = Load.drive(workers, seconds: options.seconds, serverCPU: serverCPU)

        let tally = Load.Tally(workers)
        let elapsed = window.elapsed(workers)
        let requestsPerSecond = Double(tally.created) / elapsed
        let label = processes == 1 ? "1 process" : "\(processes) processes"
        say(
            String(
                format: "createMessage (POST %@), %@ on one PostgreSQL database, %d connections, %.1f s "
                    + "(warm-up %.1f requests/s)", Load.path, label, connections, elapsed, warmUpRate))
        say(line("requests/s, \(label) (201 Created)", requestsPerSecond))
        say(line("latency p50, \(label) (ms)", Load.percentile(tally.latencies, 0.50) / 1e6, format: "%10.2f"))
        say(line("latency p99, \(label) (ms)", Load.percentile(tally.latencies, 0.99) / 1e6, format: "%10.2f"))
        say(line("errors, \(label) (other statuses, no answer)", Double(tally.errors), format: "%10.0f"))
        for (status, count) in tally.statuses.sorted(by: { $0.key < $1.key }) where status != 201 {
            say("  status \(status): \(count)")
        }
        if let problem = workers.lazy.compactMap(\.firstProblem).first {
            say("  first: \(problem.prefix(300))")
        }
        let ranOut = workers.filter(\.ranOut).count
        if ranOut > 0 {
            say("  WARNING: \(ranOut) connection(s) used up their requests before the window ended")
        }
        guard tally.created > 0 else {
            throw Spawn.Failure(description: "no createMessage was answered 201 in the window (\(label))")
        }
        let perRequest = window.serverCPU / Double(tally.created) * 1e6
        let cores = ProcessInfo.processInfo.activeProcessorCount
        say(
            line("server CPU per request, \(label) (µs)", perRequest)
                + String(
                    format: "   (cores busy of %d: servers %.2f, client %.2f, PostgreSQL and the rest %.2f)", cores,
                    window.serverCPU / elapsed, window.clientCPU / elapsed,
                    max(0, (window.machineCPU - window.serverCPU - window.clientCPU) / elapsed)))
        return Outcome(processes: processes, requestsPerSecond: requestsPerSecond, serverCPUPerRequest: perRequest)
    }

    /// `pgbench`: `SHAREKIT_POSTGRES_BINDIR`, the newest
    /// `/usr/lib/postgresql/*/bin`, then `PATH`.
    /// - Throws: ``Missing`` when there is none.
    static func findPgbench() throws -> String {
        var candidates: [String] = []
        if let configured = ProcessInfo.processInfo.environment["SHAREKIT_POSTGRES_BINDIR"] {
            candidates.append(configured)
        }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        candidates += versions.compactMap(Int.init).sorted(by: >).map { "/usr/lib/postgresql/\($0)/bin" }
        candidates += (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map {
            String($0)
        }
        if let found = candidates.map({ $0 + "/pgbench" }).first(where: { access($0, X_OK) == 0 }) {
            return found
        }
        throw Missing(
            description: "pgbench is not installed (Debian: apt-get install postgresql, whose server package "
                + "ships it; or set SHAREKIT_POSTGRES_BINDIR)")
    }

    private func line(_ label: String, _ value: Double, format: String = "%10.1f") -> String {
        label.padding(toLength: 48, withPad: " ", startingAt: 0) + String(format: format, value)
    }
}

/// PostgreSQL's own one-row commits/s: `pgbench -n -f one-insert.sql -c 8
/// -T S` (benchmarks/postgres/one-insert.sql) on a database of its own on
/// the benchmark's server.
struct PgbenchReference {
    let postgres: TemporaryPostgres
    let pgbench: String
    let clients: Int
    let database: String
    let script: String

    /// Creates the reference's database and table.
    /// - Throws: ``TemporaryPostgres/Failure`` when psql fails; ``Spawn/Failure`` when the script is missing.
    init(postgres: TemporaryPostgres, pgbench: String, clients: Int) throws {
        self.postgres = postgres
        self.pgbench = pgbench
        self.clients = clients
        // …/benchmarks/postgres/PostgresBenchmark/Sources/PostgresBenchmark/PostgresBenchmark.swift
        var folder = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { folder.deleteLastPathComponent() }
        script = folder.path + "/one-insert.sql"
        guard FileManager.default.fileExists(atPath: script) else {
            throw Spawn.Failure(description: "the pgbench script \(script) is missing")
        }
        database = try postgres.createDatabase("pgbench_reference")
        try postgres.psql(
            "CREATE TABLE one_row (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, client integer NOT NULL, "
                + "note text NOT NULL)", database: database)
    }

    /// Runs pgbench for `seconds` (whole seconds, at least 1).
    /// - Returns: its transactions (commits) per second.
    /// - Throws: ``Spawn/Failure`` when pgbench fails or prints no `tps = ` line.
    func measure(seconds: Double) throws -> Double {
        let output = try Spawn.output(
            pgbench,
            [
                "-n", "-f", script, "-c", String(clients), "-T", String(max(1, Int(seconds.rounded(.up)))),
                "-h", postgres.socketDirectory, "-p", String(postgres.port), "-U", postgres.user, database,
            ])
        // "tps = 1234.567890 (without initial connection time)"
        for line in output.split(separator: "\n") where line.hasPrefix("tps = ") {
            if let value = line.dropFirst(6).split(separator: " ").first.flatMap({ Double($0) }), value.isFinite {
                return value
            }
        }
        throw Spawn.Failure(description: "pgbench printed no tps line:\n\(output)")
    }
}

/// The servers running now, for the signal handler that stops them when the
/// benchmark is interrupted (PostgreSQL stops by itself: its watching shell
/// sees this process's end). A fixed C array: the handler reads it.
enum RunningServers {
    nonisolated(unsafe) private static let pids: UnsafeMutablePointer<pid_t> = {
        let pointer = UnsafeMutablePointer<pid_t>.allocate(capacity: 8)
        pointer.initialize(repeating: 0, count: 8)
        return pointer
    }()

    /// Remembers a started server.
    static func add(_ pid: pid_t) {
        for index in 0..<8 where pids[index] == 0 {
            pids[index] = pid
            return
        }
    }

    /// Forgets them all (they were stopped).
    static func clear() {
        for index in 0..<8 { pids[index] = 0 }
    }

    /// SIGINT, SIGTERM and SIGHUP stop the servers (SIGTERM) before the
    /// benchmark exits; SIGPIPE is ignored (a closed socket is an error the
    /// client reports).
    static func installSignalHandlers() {
        _ = pids
        signal(SIGPIPE, SIG_IGN)
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number) { received in
                for index in 0..<8 where RunningServers.pids[index] > 0 {
                    kill(RunningServers.pids[index], SIGTERM)
                    var status: Int32 = 0
                    waitpid(RunningServers.pids[index], &status, 0)
                }
                _exit(128 + received)
            }
        }
    }
}

/// Writes a line to standard output at once, so progress shows while the run lasts.
private func say(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}
