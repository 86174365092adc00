import BenchmarkSupport
import Foundation
import ServerLoad
import ShareKitDPoP
import ShareKitOpenSSLCrypto

/// Drives createMessage with full DPoP verification against a running
/// `share-server` from several keep-alive connections, and measures the
/// DPoP module's verify rate in the same run, so the throughput reads as a
/// fraction of the verification ceiling on whatever machine runs it.
struct ServerBenchmark {
    let options: Options

    /// Seconds of load before the window.
    let warmUpSeconds = 1.0
    /// The goal for the server's CPU time per createMessage, in microseconds.
    static let cpuGoal = 250.0
    /// The goal for requests/s : SQLite's one-row commits/s (more requests
    /// than commits: requests share them).
    static let commitsGoal = 1.0
    /// The createMessage path: a thread of the seed's chat channel.
    let path = Load.path

    func run() throws {
        let executable = try options.server ?? ShareServer.buildRelease()
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw Spawn.Failure(description: "\(executable) is not an executable file")
        }
        ServerProcess.installSignalHandlers()
        let server = try ServerProcess(
            executable: executable, users: options.connections, quiet: options.quietServer,
            in: options.databaseDirectory)
        defer { server.stop() }
        do {
            try measure(server, executable: executable)
        } catch {
            let tail = server.logTail()
            throw Spawn.Failure(description: "\(error)" + (tail.isEmpty ? "" : "\n" + tail))
        }
        let status = server.stop().map { "\($0)" } ?? "unknown"
        say("share-server stopped with SIGTERM, exit status \(status)")
    }

    private func measure(_ server: ServerProcess, executable: String) throws {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let connections = options.connections
        say(
            "share-server \(executable) (pid \(server.pid)) on \(server.origin); \(connections) users; "
                + "database in \(server.directory); " + (options.quietServer ? "--quiet" : "request log to a file"))
        say("machine: \(cores) cores; the client and the server share them")

        // The storage reference, on the idle server's disk: now (before the
        // connections open: an idle one is closed after the server's head
        // timeout) and again after the window, because other work on the
        // machine moves it.
        let database = server.directory + "/server.sqlite"
        let commitsBefore = try SQLiteReference.measure(
            seconds: options.verifySeconds, directory: server.directory, serverDatabase: database)

        // Log in every user on its own connection, with its own key.
        let crypto = OpenSSLCryptoProvider()
        var sessions: [Load.Session] = []
        for user in server.users {
            let connection = try HTTPConnection(port: server.port)
            let signer = try ES256ProofSigner(key: crypto.generateP256SigningKey(), crypto: crypto)
            let token = try Load.login(connection, user, signer: signer, origin: server.origin)
            sessions.append(Load.Session(connection: connection, signer: signer, token: token))
        }

        // The DPoP module's rates, now, on this machine.
        let url = server.origin + path
        let rates = try VerifyRate.measure(seconds: options.verifySeconds, url: url, accessToken: sessions[0].token)
        report("dpop proofs/s (ES256, ath, 1 thread)", rates.proofs)
        report("dpop verifies/s (all checks, 1 thread)", rates.verifies)

        // Warm-up: one request per connection that must be answered 201,
        // then a second of load that warms the server and tells how many
        // requests the window will need. Its proofs are bounded by what the
        // server could possibly use: each request costs one verification,
        // and at most min(cores, connections) requests run at once.
        let ceiling = rates.verifies.perCPUSecond * Double(min(cores, connections)) / Double(connections)
        let warmUpPools = try Load.makePools(
            sessions, count: Int((ceiling * warmUpSeconds * 1.2).rounded(.up)) + 1, origin: server.origin, phase: "w")
        let warmUpWorkers = zip(sessions, warmUpPools).map { LoadWorker(connection: $0.0.connection, pool: $0.1) }
        for worker in warmUpWorkers { try worker.check(1) }
        let warmUpWindow = Load.drive(warmUpWorkers, seconds: warmUpSeconds) { server.cpuSeconds() ?? 0 }
        let warmUpCreated = warmUpWorkers.reduce(0) { $0 + $1.statuses[201, default: 0] }
        let warmUpRate = Double(warmUpCreated) / warmUpWindow.elapsed(warmUpWorkers)

        // The window's requests, made now: three times what the warm-up
        // rate needs (never more than the ceiling), so that no connection
        // runs out.
        let perConnection = Int(
            min(ceiling * 1.2, warmUpRate * 3 / Double(connections) + 50) * options.seconds.rounded(.up))
        let (pools, making) = try Load.makeWindowPools(
            sessions, count: perConnection, origin: server.origin, seconds: options.seconds)
        let bytes = pools.reduce(0) { $0 + $1.byteCount }
        say(
            String(
                format: "warm-up: %.0f s at %.1f requests/s; window's requests: %d x %d (new client_msg_id and "
                    + "proof each), %.1f MB, made in %.1f s", warmUpSeconds, warmUpRate, connections, perConnection,
                Double(bytes) / 1e6, making))
        let workers = zip(sessions, pools).map { LoadWorker(connection: $0.0.connection, pool: $0.1) }
        let window = Load.drive(workers, seconds: options.seconds) { server.cpuSeconds() ?? 0 }

        // Results.
        let tally = Load.Tally(workers)
        let (statuses, latencies, created, failed, errors) =
            (tally.statuses, tally.latencies, tally.created, tally.failed, tally.errors)
        let elapsed = window.elapsed(workers)
        let requestsPerSecond = Double(created) / elapsed

        say(
            String(
                format: "createMessage (POST %@), %d connections, %.1f s, full DPoP verification", path,
                connections, elapsed))
        say(line("requests/s (201 Created)", requestsPerSecond))
        say(line("latency p50 (ms)", Load.percentile(latencies, 0.50) / 1e6, format: "%10.2f"))
        say(line("latency p99 (ms)", Load.percentile(latencies, 0.99) / 1e6, format: "%10.2f"))
        let seconds = Int(options.seconds.rounded(.down))
        if seconds >= 2 {
            let perSecond = (0..<seconds).map { second in workers.reduce(0) { $0 + $1.createdPerSecond[second] } }
            say("  201s in each second of the window: " + perSecond.map { "\($0)" }.joined(separator: " "))
        }
        say(line("errors (other statuses, failed requests)", Double(errors), format: "%10.0f"))
        for (status, count) in statuses.sorted(by: { $0.key < $1.key }) where status != 201 {
            say("  status \(status): \(count)")
        }
        if failed > 0 { say("  requests without an answer: \(failed)") }
        if let problem = workers.lazy.compactMap(\.firstProblem).first {
            say("  first: \(problem.prefix(300))")
        }
        let ranOut = workers.filter(\.ranOut).count
        if ranOut > 0 {
            say("  WARNING: \(ranOut) connection(s) used up their requests before the window ended")
        }
        say(
            String(
                format: "ratio requests/s : verifies/s = %.3f   (the whole server on %d cores : one thread verifying)",
                requestsPerSecond / rates.verifies.perCPUSecond, cores))
        let commitsAfter = try SQLiteReference.measure(
            seconds: options.verifySeconds, directory: server.directory, serverDatabase: database)
        let commits = (commitsBefore + commitsAfter) / 2
        say(
            line("sqlite commits/s (1-row txn, WAL, FULL)", commits)
                + String(format: "   (before the window %.1f, after it %.1f)", commitsBefore, commitsAfter))
        say(
            String(
                format: "ratio requests/s : sqlite commits/s = %.3f   (createMessage : what its storage commits alone)",
                requestsPerSecond / commits))

        // Where the CPU went in the window: the server, this client, anything else on the machine.
        let serverCores = window.serverCPU / elapsed
        let clientCores = window.clientCPU / elapsed
        let otherCores = max(0, window.machineCPU / elapsed - serverCores - clientCores)
        say(
            String(
                format: "CPU in the window (cores busy of %d): server %.2f, client %.2f, other processes %.2f",
                cores, serverCores, clientCores, otherCores))
        let perVerify = 1e6 / rates.verifies.perCPUSecond
        let perRequest = created > 0 ? window.serverCPU / Double(created) * 1e6 : .infinity
        if created > 0 {
            say(
                line("server CPU per request (µs)", perRequest)
                    + String(format: "   (one verify: %.1f µs, %.0f %%)", perVerify, perVerify / perRequest * 100))
        }
        if let peak = server.peakRSS() {
            say(line("server peak RSS (VmHWM, MB)", Double(peak) / 1_048_576))
        }
        say(
            Goal.line(
                id: "server-cpu-per-request", value: perRequest, unit: "us", op: "<=", target: Self.cpuGoal,
                explanation: String(
                    format: "server CPU time in the window / 201 answers: %.1f s / %d (one verify %.1f us); "
                        + "%d connections, %.1f requests/s, server %.2f of %d cores busy, other processes %.2f",
                    window.serverCPU, created, perVerify, connections, requestsPerSecond, serverCores, cores,
                    otherCores)))
        say(
            Goal.line(
                id: "server-vs-sqlite-commits", value: requestsPerSecond / commits, unit: "x", op: ">=",
                target: Self.commitsGoal,
                explanation: String(
                    format: "createMessage %.1f requests/s (%d connections) against SQLite's one-row commits "
                        + "%.1f/s (WAL, synchronous=FULL, same disk; %.1f before the window, %.1f after)",
                    requestsPerSecond, connections, commits, commitsBefore, commitsAfter)))
    }

    private func line(_ label: String, _ value: Double, format: String = "%10.1f") -> String {
        label.padding(toLength: 48, withPad: " ", startingAt: 0) + String(format: format, value)
    }

    private func report(_ label: String, _ rate: Rate) {
        say(line(label, rate.perCPUSecond) + String(format: "   (%.1f per wall-clock second)", rate.perWallSecond))
    }
}

/// Writes a line to standard output at once (not through stdio's buffer), so
/// progress shows while the run lasts even when the output goes to a pipe or a file.
private func say(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}
