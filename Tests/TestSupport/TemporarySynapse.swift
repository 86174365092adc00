public import Foundation
import FoundationNetworking
public import ShareKitSystemTesting

/// A real Synapse homeserver for the Matrix suites (and the share sheet's
/// test with a Matrix account): installed by `.ci/run`
/// into a virtual environment that `SHAREKIT_SYNAPSE_VENV` names (tools/test
/// sets it), started once per test process on a free loopback port with
/// SQLite in a temporary directory, and stopped by its PID at exit.
///
/// The configuration is the test's own: registration open without
/// verification (users are made over plain HTTP, without the 10 s start of
/// `register_new_matrix_user`), rate limits relaxed except where a test asks
/// for them, a 10 MiB `max_upload_size`, short-lived refreshable access tokens.
public final class TemporarySynapse: @unchecked Sendable {
    /// The homeserver's origin, `http://127.0.0.1:PORT`.
    public let origin: String
    /// Where its configuration, database, media and log live.
    public let directory: TemporaryDirectory
    /// The largest upload it takes (`max_upload_size`).
    public static let maxUploadBytes = 10 * 1024 * 1024
    private var child: SpawnedChild
    private let lock = NSLock()
    private var stopped = false
    private var paused = false

    /// Synapse is missing: `.ci/run` installs it, a developer sets the variable.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// The server of this test process, started by the first caller.
    public static func shared() throws -> TemporarySynapse {
        try sharedLock.withLock {
            if let sharedServer { return try sharedServer.get() }
            let result = Result { try TemporarySynapse() }
            sharedServer = result
            if case .success = result { atexit { TemporarySynapse.stopShared() } }
            return try result.get()
        }
    }

    private static let sharedLock = NSLock()
    nonisolated(unsafe) private static var sharedServer: Result<TemporarySynapse, any Error>?

    private static func stopShared() {
        if case .success(let server)? = sharedServer { server.stop() }
    }

    /// The virtual environment's Python.
    public static var python: String {
        get throws {
            let venv = ProcessInfo.processInfo.environment["SHAREKIT_SYNAPSE_VENV"] ?? "/opt/sharekit-synapse"
            let python = venv + "/bin/python"
            guard FileManager.default.isExecutableFile(atPath: python) else {
                throw Unavailable(
                    description: "no Synapse at \(venv): set SHAREKIT_SYNAPSE_VENV to a virtual environment with "
                        + "matrix-synapse installed (.ci/run makes one)")
            }
            return python
        }
    }

    /// Starts a homeserver and waits until `/_matrix/client/versions` answers.
    /// - Parameter messageRate: Synapse's `rc_message` (messages a second
    ///   per user, and how many in a burst); nil for limits no test reaches.
    public init(messageRate: (perSecond: Double, burst: Int)? = nil) throws {
        let python = try Self.python
        directory = try TemporaryDirectory(prefix: "sharekit-synapse")
        let port = try Self.freePort()
        origin = "http://127.0.0.1:\(port)"
        let dir = directory.path
        let rate = messageRate ?? (perSecond: 1000, burst: 1000)
        let config = """
            server_name: "localhost"
            pid_file: \(dir)/homeserver.pid
            listeners:
              - port: \(port)
                bind_addresses: ['127.0.0.1']
                type: http
                tls: false
                x_forwarded: false
                resources:
                  - names: [client]
                    compress: false
            database:
              name: sqlite3
              args:
                database: \(dir)/homeserver.db
            media_store_path: \(dir)/media
            signing_key_path: \(dir)/signing.key
            registration_shared_secret: "sharekit-test-secret"
            enable_registration: true
            enable_registration_without_verification: true
            report_stats: false
            trusted_key_servers: []
            suppress_key_server_warning: true
            refreshable_access_token_lifetime: 5m
            max_upload_size: \(Self.maxUploadBytes)
            url_preview_enabled: false
            rc_message: {per_second: \(rate.perSecond), burst_count: \(rate.burst)}
            rc_registration: {per_second: 1000, burst_count: 1000}
            rc_joins:
              local: {per_second: 1000, burst_count: 1000}
            rc_login:
              address: {per_second: 1000, burst_count: 1000}
              account: {per_second: 1000, burst_count: 1000}
              failed_attempts: {per_second: 1000, burst_count: 1000}

            """
        try Data(config.utf8).write(to: URL(fileURLWithPath: directory.file("hs.yaml")))
        let keys = try runProcess(
            python, ["-m", "synapse.app.homeserver", "-c", directory.file("hs.yaml"), "--generate-keys"])
        guard keys.status == 0 else { throw Unavailable(description: "synapse --generate-keys: \(keys.stderr)") }
        child = try Self.launch(python: python, directory: directory, origin: origin)
    }

    /// Starts Synapse on the configuration in `directory` and waits until
    /// `/_matrix/client/versions` answers.
    private static func launch(python: String, directory: TemporaryDirectory, origin: String) throws -> SpawnedChild {
        // Through a shell that execs Python: Synapse's output goes to a file
        // (a pipe nobody reads would stop it), and the PID is Synapse's own.
        let child = try SpawnedChild(
            "/bin/sh",
            [
                "-c", "exec \"$0\" -m synapse.app.homeserver -c \"$1\" >>\"$2\" 2>&1", python,
                directory.file("hs.yaml"), directory.file("synapse.log"),
            ],
            environment: ["PATH": "/usr/bin:/bin"], mergeErrors: true)
        close(child.input)
        close(child.output)
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            if let answer = try? request("GET", origin + "/_matrix/client/versions"), answer.status == 200 {
                return child
            }
            if child.wait(limit: .zero) != nil { break }
            // A poll interval, not synchronisation: the loop ends on the answer.
            Thread.sleep(forTimeInterval: 0.1)
        }
        kill(child.pid, SIGKILL)
        _ = child.wait()
        let log = (try? String(contentsOfFile: directory.file("synapse.log"), encoding: .utf8)) ?? ""
        throw Unavailable(description: "Synapse did not answer: \(log.suffix(2000))")
    }

    /// Stops the Synapse process by its PID (its database and media stay), as an outage.
    public func pause() {
        lock.withLock {
            guard !stopped else { return }
            Self.end(child)
            paused = true
        }
    }

    /// Starts Synapse again after ``pause()``, on the same port and database.
    public func resume() throws {
        try lock.withLock {
            guard paused, !stopped else { return }
            child = try Self.launch(python: try Self.python, directory: directory, origin: origin)
            paused = false
        }
    }

    /// SIGTERM, SIGKILL after 30 s, and the child reaped.
    private static func end(_ child: SpawnedChild) {
        kill(child.pid, SIGTERM)
        if child.wait(limit: .seconds(30)) == nil {
            kill(child.pid, SIGKILL)
            _ = child.wait()
        }
    }

    /// Synapse's log so far.
    public var log: String { (try? String(contentsOfFile: directory.file("synapse.log"), encoding: .utf8)) ?? "" }

    /// Stops Synapse by its PID (SIGTERM, SIGKILL after 30 s) and removes its
    /// files (all but its log and media when `SHAREKIT_TEST_KEEP_DIRS` keeps them).
    public func stop() {
        lock.withLock {
            guard !stopped else { return }
            stopped = true
            if !paused { Self.end(child) }
            // Synapse keeps access tokens in its database as they are. The
            // database goes even when a run keeps its directories for
            // tools/secrets-scan: that scan looks for what ShareKit leaks, and
            // a homeserver's own token store is not ShareKit's output.
            for suffix in ["", "-wal", "-shm", "-journal"] {
                try? FileManager.default.removeItem(atPath: directory.file("homeserver.db" + suffix))
            }
            directory.remove()
        }
    }

    /// A free loopback port: a listener the system gave port 0, closed
    /// again (Synapse takes no port 0 and names none).
    public static func freePort() throws -> Int {
        let probe = try SilentServer()
        defer { probe.stop() }
        return Int(probe.port)
    }

    /// One blocking HTTP request (the tests' own client, not ShareKit's).
    public static func request(
        _ method: String, _ url: String, token: String? = nil, json: Any? = nil, body: Data? = nil,
        contentType: String? = nil
    ) throws -> (status: Int, json: [String: Any], body: Data) {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.timeoutInterval = 30
        if let token { request.setValue("Bearer " + token, forHTTPHeaderField: "Authorization") }
        if let json {
            request.httpBody = try JSONSerialization.data(withJSONObject: json)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        } else if let body {
            request.httpBody = body
            request.setValue(contentType ?? "application/octet-stream", forHTTPHeaderField: "Content-Type")
        }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var outcome: (Data?, URLResponse?, (any Error)?)
        URLSession.shared.dataTask(with: request) { data, response, error in
            outcome = (data, response, error)
            done.signal()
        }.resume()
        done.wait()
        if let error = outcome.2 { throw error }
        let data = outcome.0 ?? Data()
        let status = (outcome.1 as? HTTPURLResponse)?.statusCode ?? 0
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return (status, object, data)
    }
}
