public import Foundation
import Glibc

/// The built `share` and `share-daemon` programs, run as a person runs them
/// against a benchmark's server, with a file keychain, a shared container,
/// a state and a runtime directory of their own under `home`.
///
/// The `SHAREKIT_*` variables are set in this process's environment, which
/// every child inherits (``Spawn`` passes `environ`), so one benchmark
/// process has one client at a time.
public struct ShareClient {
    /// The directory with `share` and `share-daemon`.
    public let binDirectory: String
    /// The client's directory (the caller removes it).
    public let home: String

    /// The shared container (`SHAREKIT_CONTAINER_DIR`).
    public var containerPath: String { home + "/container" }
    /// The share inbox inside the container.
    public var inboxPath: String { containerPath + "/inbox" }
    /// The daemon's state directory with `outbox.db` (`SHAREKIT_STATE_DIR`).
    public var stateDirectory: String { home + "/state" }

    /// Makes `home` and points the `SHAREKIT_*` variables of this process at it.
    /// - Throws: when `home` cannot be made.
    public init(binDirectory: String, home: String) throws {
        self.binDirectory = binDirectory
        self.home = home
        try FileManager.default.createDirectory(
            atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        setenv("SHAREKIT_KEYCHAIN", "file", 1)
        setenv("SHAREKIT_KEYCHAIN_DIR", home + "/keychain", 1)
        setenv("SHAREKIT_CONTAINER_DIR", containerPath, 1)
        setenv("SHAREKIT_STATE_DIR", stateDirectory, 1)
        setenv("SHAREKIT_RUNTIME_DIR", home + "/run", 1)
    }

    /// A client logged in to `server` with its child session and the
    /// server's limits in place: ``login(origin:user:password:)``, then one
    /// ``daemonOnce()``.
    /// - Returns: the client and the seconds of that first daemon pass.
    /// - Throws: ``Spawn/Failure`` when a step fails.
    public static func loggedIn(
        binDirectory: String, home: String, server: ShareServer, user: String, password: String
    ) throws -> (client: ShareClient, firstPass: Double) {
        let client = try ShareClient(binDirectory: binDirectory, home: home)
        try client.login(origin: server.origin, user: user, password: password)
        return (client, try client.daemonOnce())
    }

    /// `share login --server ORIGIN --user USER --password-stdin`, the
    /// password read from a 0600 file that is removed again.
    /// - Throws: ``Spawn/Failure`` when the login fails (with its stderr).
    public func login(origin: String, user: String, password: String) throws {
        let passwordFile = home + "/password"
        guard
            FileManager.default.createFile(
                atPath: passwordFile, contents: Data((password + "\n").utf8), attributes: [.posixPermissions: 0o600])
        else { throw Spawn.Failure(description: "cannot write \(passwordFile)") }
        defer { try? FileManager.default.removeItem(atPath: passwordFile) }
        let result = try run(
            "share", ["login", "--server", origin, "--user", user, "--password-stdin"], stdin: passwordFile)
        guard result.status == 0 else {
            throw Spawn.Failure(description: "share login exited with \(result.status): \(result.stderr)")
        }
    }

    /// `share-daemon --once`: one pass of every service.
    /// - Returns: its wall-clock seconds, from start to exit.
    /// - Throws: ``Spawn/Failure`` when it exits non-zero (with its log's tail).
    @discardableResult
    public func daemonOnce() throws -> Double {
        let result = try run("share-daemon", ["--once"])
        guard result.status == 0 else {
            throw Spawn.Failure(
                description: "share-daemon --once exited with \(result.status):\n"
                    + result.stderr.split(separator: "\n").suffix(20).joined(separator: "\n"))
        }
        return result.seconds
    }

    /// What a finished program did.
    public struct Result {
        /// Its exit status (128 + the signal when killed).
        public let status: Int32
        /// Its standard output.
        public let stdout: String
        /// Its standard error.
        public let stderr: String
        /// Wall-clock seconds from start to exit.
        public let seconds: Double
        /// Its resource usage from `wait4` (`ru_maxrss`: peak RSS in KiB).
        public let usage: rusage
    }

    /// Runs `program` (`share` or `share-daemon`) to its end, its output
    /// kept in files under `home` (no pipe to drain while it runs).
    /// - Throws: ``Spawn/Failure`` when it cannot be started.
    public func run(_ program: String, _ arguments: [String], stdin: String = "/dev/null") throws -> Result {
        let out = home + "/\(program).stdout"
        let err = home + "/\(program).stderr"
        let started = Clock.nanoseconds()
        let pid = try Spawn.start(
            binDirectory + "/" + program, arguments, stdin: stdin, stdout: .file(out), stderr: .file(err))
        let (status, usage) = Spawn.waitWithUsage(pid)
        let seconds = Double(Clock.nanoseconds() - started) / 1e9
        return Result(
            status: status, stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "", seconds: seconds, usage: usage)
    }
}

/// A new private directory for one run.
public enum RunDirectory {
    /// Makes `PARENT/PREFIX.XXXXXX` with `mkdtemp` (0700); PARENT is
    /// `parent`, else `$TMPDIR`, else `/tmp`.
    /// - Returns: its path.
    /// - Throws: ``Spawn/Failure`` when it cannot be made.
    public static func make(parent: String?, prefix: String) throws -> String {
        let parent = parent ?? ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        var template = Array((parent + "/" + prefix + ".XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw Spawn.Failure(description: "mkdtemp in \(parent) failed: \(String(cString: strerror(errno)))")
        }
        return String(cString: made)
    }
}
