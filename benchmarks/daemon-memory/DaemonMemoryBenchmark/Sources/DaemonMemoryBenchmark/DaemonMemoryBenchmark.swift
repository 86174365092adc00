import BenchmarkSupport
import Foundation
import Glibc
import ShareKitCore
import ShareKitInbox
import ShareKitInboxInterface
import ShareKitSQLInterface
import ShareKitSQLiteStore

/// Measures the resident set of a running `share-daemon`: idle after its
/// start, then after every `--step` shares queued in the share inbox (as
/// `share send --queue` writes them), taken over and sent to the server.
/// The goals: at most 30 MiB after 1000 shares, and no growth after the
/// first step (the daemon's memory must not depend on how many shares it
/// has handled).
struct DaemonMemoryBenchmark {
    /// The goal for the resident set after all shares.
    static let rssGoalMiB = 30.0
    /// "No growth": the most the resident set may rise after the first step,
    /// a little more than the page-granular noise of malloc's free lists.
    static let growthGoalMiB = 0.5
    /// The demo seed's thread `t1` (Alex may write there).
    static let target = ShareTarget(kind: .thread, id: "t1", displayPath: "server > Gateway > resume the gateway")
    static let textPrefix = "daemon-memory-benchmark"

    let options: Options

    func run() throws {
        let directory = try RunDirectory.make(parent: options.temporaryParent, prefix: "daemon-memory-benchmark")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bin =
            try options.binDirectory ?? ShareServer.buildRelease(products: ["share-server", "share-daemon", "share"])
        try FileManager.default.createDirectory(atPath: directory + "/server", withIntermediateDirectories: false)
        let server = try ShareServer(
            executable: bin + "/share-server", seed: nil, directory: directory + "/server", quiet: true)
        defer { server.stop() }
        say("share-server \(bin)/share-server (pid \(server.pid), demo seed) on \(server.origin)")
        let (client, _) = try ShareClient.loggedIn(
            binDirectory: bin, home: directory + "/client", server: server, user: "alex", password: "alex-demo-pass")

        let daemon = try RunningDaemon(binDirectory: bin, home: client.home)
        defer { daemon.stop() }
        try daemon.waitUntilIdle()
        let start = try daemon.memory()
        say("share-daemon \(bin)/share-daemon (pid \(daemon.pid)) in the foreground")
        say("idle after start: " + start.description)

        let inbox = FileShareInbox(directory: client.inboxPath)
        var readings: [(shares: Int, memory: Memory)] = []
        var queued = 0
        while queued < options.shares {
            let count = min(options.step, options.shares - queued)
            let started = Clock.nanoseconds()
            try writeEntries(count, into: inbox, origin: server.origin, first: queued)
            // As `share send --queue` does once its entry is written and released.
            daemon.wake()
            queued += count
            try waitForDelivery(of: queued, server: server, inbox: inbox, daemon: daemon)
            let seconds = Double(Clock.nanoseconds() - started) / 1e9
            try daemon.waitUntilIdle()
            let memory = try daemon.memory()
            readings.append((queued, memory))
            say(
                String(
                    format: "after %d shares: %@ (this step queued and sent in %.1f s)", queued, memory.description,
                    seconds))
        }
        let status = daemon.stop()
        say("share-daemon stopped with SIGTERM: exit status \(status.map(String.init) ?? "unknown")")

        guard let first = readings.first, let last = readings.last else { return }
        let growth = (readings.dropFirst().map(\.memory.rssMiB).max() ?? first.memory.rssMiB) - first.memory.rssMiB
        goal(
            "daemon-rss-1000", value: last.memory.rssMiB, unit: "MiB",
            op: "<=", target: Self.rssGoalMiB,
            String(
                format:
                    "VmRSS of the idle share-daemon after %d shares taken over and sent (%.1f MiB idle after start)",
                last.shares, start.rssMiB))
        goal(
            "daemon-rss-growth", value: max(0, growth), unit: "MiB", op: "<=", target: Self.growthGoalMiB,
            String(
                format: "highest VmRSS after %d shares minus VmRSS after the first %d (%.1f MiB); readings: %@",
                last.shares, first.shares, first.memory.rssMiB,
                readings.map { String(format: "%d: %.2f", $0.shares, $0.memory.rssMiB) }.joined(separator: ", ")))
    }

    /// Prints a GOAL line (benchmarks/README.md).
    private func goal(_ id: String, value: Double, unit: String, op: String, target: Double, _ explanation: String) {
        let met = op == "<=" ? value <= target : value >= target
        say(
            "GOAL \(id) value=\(String(format: "%.2f", value))\(unit) \(op) \(Self.figure(target))\(unit) "
                + "\(met ? "PASS" : "FAIL") -- \(explanation)")
    }

    private static func figure(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// Writes `count` entries as `share send --text T --queue` does: a
    /// locked draft, the manifest, the commit (the sender gives the lock up
    /// right after, and the daemon takes the entry over).
    private func writeEntries(_ count: Int, into inbox: FileShareInbox, origin: String, first: Int) throws {
        let created = RFC3339.string(Date())
        for index in first..<(first + count) {
            let id = UUIDv7()
            let draft = try inbox.makeDraft(id: id.description)
            let manifest = InboxManifest(
                clientMsgID: id.description, serverOrigin: origin, target: Self.target,
                comment: "\(Self.textPrefix) \(index): a small text share", createdAt: created)
            _ = try inbox.commit(draft, manifest: manifest)
            draft.release()
        }
    }

    /// Waits (at most ten minutes) until the server holds `count` messages
    /// of this benchmark, each once, and the inbox is empty.
    private func waitForDelivery(of count: Int, server: ShareServer, inbox: FileShareInbox, daemon: RunningDaemon)
        throws
    {
        let deadline = Clock.nanoseconds() + 600_000_000_000
        var messages: Int64 = 0
        var ids: Int64 = 0
        var left = -1
        while Clock.nanoseconds() < deadline {
            (messages, ids) = try serverCounts(server)
            left = try FileManager.default.contentsOfDirectory(atPath: inbox.directory).filter { !$0.hasPrefix(".") }
                .count
            if messages == count, ids == count, left == 0 { return }
            guard messages <= count, ids == messages else { break }
            guard daemon.isRunning else {
                throw Spawn.Failure(description: "share-daemon exited\n" + daemon.logTail())
            }
            usleep(50_000)
        }
        throw Spawn.Failure(
            description: "after queueing \(count) shares the server holds \(messages) messages (\(ids) client_msg_ids) "
                + "and the inbox \(left) entries\n" + daemon.logTail() + "\n" + server.logTail())
    }

    /// The benchmark's messages on the server and their distinct `client_msg_id`s.
    private func serverCounts(_ server: ShareServer) throws -> (Int64, Int64) {
        let database = try SQLiteDatabase(path: server.directory + "/server.sqlite")
        defer { try? database.close() }
        let row = try database.query(
            "SELECT count(*) AS n, count(DISTINCT client_msg_id) AS ids FROM messages "
                + "WHERE thread_id = 't1' AND sender = 'alex' AND text LIKE ?", [.text(Self.textPrefix + " %")]
        ).first
        return (try row?.get("n", as: Int64.self) ?? 0, try row?.get("ids", as: Int64.self) ?? 0)
    }

    private func say(_ text: String) {
        print(text)
        fflush(nil)
    }
}

/// What `/proc/PID/status` says about a process's memory.
struct Memory: CustomStringConvertible {
    /// Resident set (`VmRSS`), KiB.
    var rss = 0
    /// Anonymous resident memory (`RssAnon`: heap, stacks), KiB.
    var anonymous = 0
    /// Resident file pages (`RssFile`: the mapped code of the program and its libraries), KiB.
    var file = 0
    /// Resident shared memory (`RssShmem`), KiB.
    var shared = 0
    /// Peak resident set (`VmHWM`), KiB.
    var peak = 0
    /// Threads.
    var threads = 0

    var rssMiB: Double { Double(rss) / 1024 }

    var description: String {
        String(
            format: "RSS %.2f MiB (anonymous %.2f, file %.2f, shmem %.2f), peak %.2f MiB, %d threads", rssMiB,
            Double(anonymous) / 1024, Double(file) / 1024, Double(shared) / 1024, Double(peak) / 1024, threads)
    }

    /// Reads `/proc/PID/status`.
    init(pid: pid_t) throws {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
            throw Spawn.Failure(description: "cannot read /proc/\(pid)/status")
        }
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let number = Int(parts[1].trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "") ?? 0
            switch parts[0] {
            case "VmRSS": rss = number
            case "RssAnon": anonymous = number
            case "RssFile": file = number
            case "RssShmem": shared = number
            case "VmHWM": peak = number
            case "Threads": threads = number
            default: break
            }
        }
    }
}

/// `share-daemon` in the foreground (as a desktop session runs it), its
/// output in files of the client's home.
final class RunningDaemon {
    let pid: pid_t
    private let stdoutPath: String
    private let stderrPath: String
    /// The control socket (`SHAREKIT_RUNTIME_DIR`, which ShareClient sets to `<home>/run`).
    private let socketPath: String
    private var exitStatus: Int32??

    /// Starts the daemon and waits (at most two minutes) for its `share-daemon: ready` line.
    /// - Throws: ``Spawn/Failure`` when it does not start or exits first.
    init(binDirectory: String, home: String) throws {
        stdoutPath = home + "/daemon.stdout"
        stderrPath = home + "/daemon.stderr"
        socketPath = home + "/run/daemon.sock"
        pid = try Spawn.start(
            binDirectory + "/share-daemon", [], stdout: .file(stdoutPath), stderr: .file(stderrPath))
        let deadline = Clock.nanoseconds() + 120_000_000_000
        while Clock.nanoseconds() < deadline {
            if let out = try? String(contentsOfFile: stdoutPath, encoding: .utf8), out.contains("share-daemon: ready") {
                return
            }
            guard isRunning else { break }
            usleep(20_000)
        }
        stop()
        throw Spawn.Failure(description: "share-daemon did not say it was ready\n" + logTail())
    }

    deinit { stop() }

    /// Whether the process still runs.
    var isRunning: Bool {
        if exitStatus != nil { return false }
        if let status = Spawn.wait(pid, timeout: 0) {
            exitStatus = .some(status)
            return false
        }
        return true
    }

    /// Its memory now.
    func memory() throws -> Memory { try Memory(pid: pid) }

    /// Waits until the daemon has used no CPU for half a second (its passes
    /// are done; it waits for a wake-up, a timer or the event feed), at most 60 s.
    func waitUntilIdle() throws {
        let deadline = Clock.nanoseconds() + 60_000_000_000
        var last = try cpuTicks()
        var quiet = 0
        while Clock.nanoseconds() < deadline {
            usleep(100_000)
            let now = try cpuTicks()
            quiet = now == last ? quiet + 1 : 0
            last = now
            if quiet >= 5 { return }
        }
        throw Spawn.Failure(description: "share-daemon did not become idle within 60 s\n" + logTail())
    }

    /// User and system clock ticks from `/proc/PID/stat`.
    private func cpuTicks() throws -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { throw Spawn.Failure(description: "cannot read /proc/\(pid)/stat\n" + logTail()) }
        // After "pid (comm) ": state is field 3, utime 14 and stime 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else {
            throw Spawn.Failure(description: "cannot parse /proc/\(pid)/stat")
        }
        return user + system
    }

    /// Asks the daemon to look at the inbox now, through its control socket
    /// (`{"request":"wake"}`, as `share send --queue` does); best effort,
    /// its inbox watcher and timer remain.
    func wake() {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array(socketPath.utf8)
        guard path.count < MemoryLayout.size(ofValue: address.sun_path) else { return }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else { return }
        let request = Array(#"{"request":"wake"}"#.utf8) + [0x0A]
        _ = request.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        var answer = [UInt8](repeating: 0, count: 256)
        _ = answer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    }

    /// Stops it with SIGTERM (SIGKILL after 20 s).
    /// - Returns: its exit status, nil when it was already reaped without one.
    @discardableResult
    func stop() -> Int32? {
        if let exitStatus { return exitStatus }
        kill(pid, SIGTERM)
        var status = Spawn.wait(pid, timeout: 20)
        if status == nil {
            kill(pid, SIGKILL)
            status = Spawn.wait(pid)
        }
        exitStatus = .some(status)
        return status
    }

    /// The end of its log, for error reports.
    func logTail() -> String {
        let log = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
        return "share-daemon log (last lines):\n" + log.split(separator: "\n").suffix(20).joined(separator: "\n")
    }
}
