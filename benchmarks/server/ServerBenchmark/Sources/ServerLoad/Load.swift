import BenchmarkSupport
public import Foundation
import Glibc
public import ShareKitDPoP

/// The createMessage load of the server benchmarks: the seed they start
/// `share-server` with, logging its people in, making every connection's
/// requests before the window, and driving the connections through it. One
/// copy for `server/` (one process on SQLite) and `postgres/` (one and two
/// processes on PostgreSQL).
public enum Load {
    /// A person of the seed: one per connection.
    public struct User: Sendable {
        /// The login name (`bench1`, `bench2`…).
        public let username: String
        /// The password.
        public let password: String
    }

    /// One logged-in connection: its keep-alive connection, the key of its
    /// proofs and its session's access token.
    public struct Session {
        /// The connection.
        public let connection: HTTPConnection
        /// The session's DPoP key.
        public let signer: ES256ProofSigner
        /// The access token.
        public let token: String

        /// A logged-in connection.
        public init(connection: HTTPConnection, signer: ES256ProofSigner, token: String) {
            self.connection = connection
            self.signer = signer
            self.token = token
        }
    }

    /// The chat channel everyone can write, and a thread in it.
    public static let channelID = "c-bench"
    /// The thread createMessage writes to.
    public static let threadID = "t-bench"
    /// The createMessage path.
    public static let path = "/api/v1/threads/\(threadID)/messages"

    /// The people of a seed of `count` users.
    public static func users(_ count: Int) -> [User] {
        (1...max(1, count)).map { User(username: "bench\($0)", password: "bench-password-\($0)") }
    }

    /// The seed: `users`, a chat channel they all read and write, a thread
    /// in it, access tokens that outlive the run.
    /// - Parameter users: the people.
    /// - Returns: the seed, as `JSONSerialization` takes it.
    public static func seed(users: [User]) -> [String: Any] {
        let names = users.map(\.username)
        return [
            "users": users.map { ["username": $0.username, "password": $0.password] },
            "spaces": [
                [
                    "id": "s-bench", "name": "benchmark",
                    "channels": [
                        ["id": channelID, "name": "load", "kind": "chat", "readers": names, "writers": names]
                    ],
                ]
            ],
            "threads": [["id": threadID, "channel_id": channelID, "title": "benchmark thread"]],
            "tokens": ["access_ttl_seconds": 3600],
        ]
    }

    /// Logs a user in with a proof (no `ath`).
    /// - Parameters:
    ///   - connection: the connection to log in on (reconnected when the server closes it).
    ///   - user: who.
    ///   - signer: the session's key.
    ///   - origin: the origin the server checks `htu` against.
    /// - Returns: the access token.
    /// - Throws: ``HTTPConnection/Failure`` when the login is not answered 201 with a token.
    public static func login(_ connection: HTTPConnection, _ user: User, signer: ES256ProofSigner, origin: String)
        throws -> String
    {
        let loginPath = "/api/v1/auth/login"
        let body = try JSONSerialization.data(withJSONObject: [
            "username": user.username, "password": user.password, "client_component": "app",
        ])
        let proof = try signer.makeProof(method: "POST", url: origin + loginPath, accessToken: nil, nonce: nil)
        let request = HTTPRequest.bytes(
            method: "POST", path: loginPath, host: host(of: origin),
            headers: [("DPoP", proof), ("Content-Type", "application/json")], body: Array(body))
        try request.withUnsafeBytes { try connection.send($0) }
        let response = try connection.receive()
        let bytes = Data(connection.bodyBytes[response.body])
        guard response.status == 201,
            let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any],
            let token = object["access_token"] as? String
        else {
            throw HTTPConnection.Failure(
                description: "login of \(user.username) answered \(response.status): "
                    + String(decoding: bytes, as: UTF8.self))
        }
        if response.closes { try connection.reconnect() }
        return token
    }

    /// The `Host` of an origin: `http://127.0.0.1:8080` -> `127.0.0.1:8080`.
    static func host(of origin: String) -> String {
        String(origin.drop(while: { $0 != "/" }).drop(while: { $0 == "/" }))
    }

    /// Makes every connection's requests, one connection per task on all cores.
    /// - Parameters:
    ///   - sessions: the logged-in connections.
    ///   - count: requests per connection.
    ///   - origin: the origin of `htu`.
    ///   - phase: a letter for the `client_msg_id`s (`w` warm-up, `m` measured).
    /// - Returns: a pool per session, in order.
    /// - Throws: a DPoP error when a proof cannot be made.
    public static func makePools(_ sessions: [Session], count: Int, origin: String, phase: String) throws
        -> [RequestPool]
    {
        final class Results: @unchecked Sendable {
            let lock = NSLock()
            var pools: [Int: RequestPool] = [:]
            var error: (any Error)?
        }
        let results = Results()
        let inputs = sessions.map { (signer: $0.signer, token: $0.token) }
        let tag = String(UInt32.random(in: 0...UInt32.max), radix: 36)
        DispatchQueue.concurrentPerform(iterations: inputs.count) { index in
            do {
                let pool = try RequestPool(
                    count: count, signer: inputs[index].signer, accessToken: inputs[index].token, origin: origin,
                    path: path, tag: "b\(tag)\(phase)-c\(index + 1)")
                results.lock.withLock { results.pools[index] = pool }
            } catch {
                results.lock.withLock { results.error = error }
            }
        }
        if let error = results.error { throw error }
        return (0..<inputs.count).map { results.pools[$0]! }
    }

    /// Makes the window's requests (``makePools(_:count:origin:phase:)``,
    /// phase `m`) and checks that the first proofs will still be inside the
    /// server's 60-second `iat` window when the last request goes out.
    /// - Returns: the pools and the seconds making them took.
    /// - Throws: a DPoP error; ``HTTPConnection/Failure`` when making took
    ///   so long that `seconds` of load would outlast the `iat` window.
    public static func makeWindowPools(_ sessions: [Session], count: Int, origin: String, seconds: Double) throws
        -> (pools: [RequestPool], making: Double)
    {
        let madeAt = Clock.nanoseconds()
        let pools = try makePools(sessions, count: count, origin: origin, phase: "m")
        let making = Double(Clock.nanoseconds() - madeAt) / 1e9
        guard making + seconds + 5 < 60 else {
            throw HTTPConnection.Failure(
                description: String(
                    format: "making the proofs took %.1f s: with --seconds %.0f the first ones would leave the "
                        + "server's 60 s iat window; use fewer --seconds", making, seconds))
        }
        return (pools, making)
    }

    /// What was measured around a window.
    public struct Window {
        /// When the workers were released (monotonic nanoseconds).
        public let start: UInt64
        /// CPU seconds the server processes used in it.
        public let serverCPU: Double
        /// CPU seconds this process used in it.
        public let clientCPU: Double
        /// CPU seconds the whole machine was busy in it.
        public let machineCPU: Double

        /// Seconds from the start to the last answer.
        public func elapsed(_ workers: [LoadWorker]) -> Double {
            let last = workers.map(\.lastAnswer).max() ?? 0
            return Double((last > start ? last : Clock.nanoseconds()) - start) / 1e9
        }
    }

    /// Runs every worker on a thread of its own for `seconds`, all released
    /// at once, and measures the CPU time the server, this process and the
    /// machine used meanwhile.
    /// - Parameters:
    ///   - workers: the connections' workers.
    ///   - seconds: the window.
    ///   - serverCPU: the CPU seconds the server processes have used so far.
    /// - Returns: the window's figures.
    public static func drive(_ workers: [LoadWorker], seconds: Double, serverCPU: () -> Double) -> Window {
        final class Limits: @unchecked Sendable {
            var start: UInt64 = 0
            var deadline: UInt64 = 0
        }
        let limits = Limits()
        let gate = DispatchSemaphore(value: 0)
        let ready = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for worker in workers {
            done.enter()
            let thread = Thread {
                ready.signal()
                gate.wait()
                worker.run(from: limits.start, until: limits.deadline)
                done.leave()
            }
            thread.start()
        }
        for _ in workers { ready.wait() }
        let serverBefore = serverCPU()
        let machineBefore = machineBusySeconds()
        let clientBefore = Clock.processCPUNanoseconds()
        let start = Clock.nanoseconds()
        limits.start = start
        limits.deadline = start + UInt64(seconds * 1e9)
        for _ in workers { gate.signal() }
        done.wait()
        let clientCPU = Double(Clock.processCPUNanoseconds() - clientBefore) / 1e9
        let machineCPU = machineBusySeconds() - machineBefore
        return Window(
            start: start, serverCPU: serverCPU() - serverBefore, clientCPU: clientCPU, machineCPU: machineCPU)
    }

    /// CPU time (user and system, all threads) a process has used, in
    /// seconds, from /proc; nil when it is gone.
    public static func cpuSeconds(of pid: pid_t) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm)": state is field 3, utime 14, stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Seconds of CPU time all cores have been busy since boot (/proc/stat).
    public static func machineBusySeconds() -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let first = stat.split(separator: "\n").first
        else { return 0 }
        // cpu user nice system idle iowait irq softirq steal guest guest_nice
        let ticks = first.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard ticks.count >= 8 else { return 0 }
        let busy = ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6] + ticks[7]
        return busy / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The nearest-rank percentile of sorted nanoseconds.
    public static func percentile(_ sorted: [UInt64], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return Double(sorted[max(0, min(sorted.count - 1, rank - 1))])
    }

    /// What the workers of a window got, added up.
    public struct Tally {
        /// Answers per status code.
        public let statuses: [Int: Int]
        /// Every request's latency in nanoseconds, sorted.
        public let latencies: [UInt64]
        /// `201 Created` answers.
        public var created: Int { statuses[201, default: 0] }
        /// Requests answered otherwise or not at all.
        public let errors: Int
        /// Requests that got no answer (connection failures).
        public let failed: Int

        /// The tally of `workers`.
        public init(_ workers: [LoadWorker]) {
            var statuses: [Int: Int] = [:]
            var latencies: [UInt64] = []
            latencies.reserveCapacity(workers.reduce(0) { $0 + $1.latencies.count })
            for worker in workers {
                statuses.merge(worker.statuses, uniquingKeysWith: +)
                latencies += worker.latencies
            }
            latencies.sort()
            self.statuses = statuses
            self.latencies = latencies
            failed = workers.reduce(0) { $0 + $1.connectionErrors }
            errors = latencies.count - statuses[201, default: 0] + failed
        }
    }
}
