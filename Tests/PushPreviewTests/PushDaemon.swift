import Foundation
import Glibc
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitPushPreview
import ShareKitSharedStateInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// A foreground `share-daemon` over a push fixture's app group, with the
/// notification stand-ins in its environment and its log read line by line.
/// It replays the event feed from its start, so a push is seen whenever the
/// first poll happens.
final class PushDaemon: @unchecked Sendable {
    private let process: HelperProcess
    private(set) var lines: [String] = []
    private var stopped = false

    /// Starts the daemon.
    /// - Parameters:
    ///   - fixture: the app group and server.
    ///   - environment: extra variables (`SHAREKIT_NOTIFY_COMMAND`, `SHAREKIT_OPEN_COMMAND`).
    ///   - arguments: more options (`--max-notifications`).
    init(_ fixture: PushFixture, environment: [String: String], arguments: [String] = []) throws {
        let daemonDirectory = fixture.sandbox.assembly.container.rootPath + "/daemon"
        try FileManager.default.createDirectory(
            atPath: daemonDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try "0".write(toFile: daemonDirectory + "/events.cursor", atomically: true, encoding: .utf8)
        process = try HelperProcess(
            executable: BuiltProducts.path("share-daemon"), ["--interval", "0.2", "--verbose"] + arguments,
            environment: fixture.sandbox.environment.merging(environment.merging(["LANG": "C.UTF-8"]) { $1 }) { $1 },
            mergeErrors: true)
    }

    /// Reads log lines until one matches; nil (and a recorded issue with
    /// the log so far) when none did within `limit`.
    func wait(limit: Duration = .seconds(60), _ predicate: (String) -> Bool) -> String? {
        let deadline = ContinuousClock.now + limit
        while let line = process.readLine(until: deadline) {
            lines.append(line)
            if predicate(line) { return line }
        }
        Issue.record("no such line from the daemon; it said:\n\(lines.joined(separator: "\n"))")
        return nil
    }

    /// The daemon's process id.
    var pid: Int32 { process.pid }

    /// Sends SIGTERM and waits for the exit.
    /// - Returns: the exit status and how long the daemon took to exit.
    func terminate() -> (status: Int32, took: Duration) {
        stopped = true
        let start = ContinuousClock.now
        process.kill(SIGTERM)
        let outcome = process.finish()
        lines += outcome.stdout.split(separator: "\n").map(String.init)
        return (outcome.status, ContinuousClock.now - start)
    }

    /// Stops the daemon with SIGTERM unless it was stopped already: for a
    /// daemon whose notification programs wait for a click (the real
    /// `notify-send`), which only its graceful stop ends; after SIGKILL
    /// they would live on, holding the daemon's output open.
    func stopGracefully() {
        guard !stopped else { return }
        _ = terminate()
    }

    /// Stops the daemon with SIGKILL, when the test needs no graceful stop
    /// (``terminate()`` is one).
    func stop() {
        guard !stopped else { return }
        stopped = true
        process.kill(SIGKILL)
        _ = process.finish()
    }
}

/// Notification stand-ins: programs that record how they were called.
enum StandIns {
    /// A stand-in for `notify-send` that appends each call's arguments to
    /// `record` (a line `--- call`, then one argument a line) and, when
    /// `click` and the call offers the default action, prints `default` as
    /// notify-send does when the notification is clicked.
    static func notifier(_ fixture: PushFixture, record: String, click: Bool) throws -> String {
        let clicking = click ? "for a in \"$@\"; do case \"$a\" in --action=default=*) echo default;; esac; done\n" : ""
        return try script(
            fixture, name: click ? "clicking-notify-send" : "recording-notify-send",
            body: "{ echo '--- call'; for a in \"$@\"; do printf '%s\\n' \"$a\"; done; } >> '\(record)'\n" + clicking)
    }

    /// A stand-in for `xdg-open` that appends its arguments to `record`, one a line.
    static func opener(_ fixture: PushFixture, record: String) throws -> String {
        try script(fixture, name: "xdg-open", body: "for a in \"$@\"; do printf '%s\\n' \"$a\"; done >> '\(record)'\n")
    }

    /// The calls a ``notifier(_:record:click:)`` recorded, each its arguments.
    static func calls(_ record: String) -> [[String]] {
        let text = (try? String(contentsOfFile: record, encoding: .utf8)) ?? ""
        return text.components(separatedBy: "--- call\n").dropFirst().map {
            $0.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }
    }

    /// The lines of a record (nothing when the file is not there).
    static func lines(_ record: String) -> [String] {
        ((try? String(contentsOfFile: record, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Writes an executable shell script, through a close-on-exec
    /// descriptor: a process another test spawns meanwhile must not inherit
    /// it open for writing, or running the script fails with "Text file busy".
    static func script(_ fixture: PushFixture, name: String, body: String) throws -> String {
        let path = fixture.sandbox.home.file(name)
        let text = Array(("#!/bin/sh\n" + body).utf8)
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o700)
        guard fd >= 0 else { throw FixtureError("cannot create \(path) (errno \(errno))") }
        defer { close(fd) }
        guard text.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == text.count else {
            throw FixtureError("cannot write \(path)")
        }
        return path
    }
}
