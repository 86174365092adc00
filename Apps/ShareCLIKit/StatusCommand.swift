import AppSupport
import ClientAssembly
import Foundation
import Sessions
import SessionsInterface
import ShareCore
import ShareInbox
import ShareInboxInterface
import SharedState
import SharedStateInterface

/// `share status`: what this device knows, for a person or a script: the
/// server and account, which sessions are stored (ids and expiry, never a
/// token), the share inbox, and what the daemon says about itself.
/// Informational: it exits 0 whether or not anyone is logged in.
enum StatusCommand {
    static let help = """
        Usage: share status [--json]

        Shows the server and account `share login` chose, whether the parent session
        (held by share-daemon) and the child session (used by share send) are stored
        and when their refresh tokens expire, how many shares wait in the share inbox
        (and how many are quarantined or older than the maximum age), and the state of
        share-daemon: its outbox and the shares it could not send, with the reason.
        Session ids are shown; tokens never are.

        Options:
          --json  print one JSON object on stdout: {"logged_in", "server", "user",
                  "parent", "child", "inbox", "daemon"} (a session is null when none is
                  stored, "daemon" is null when share-daemon is not running).

        Exit codes:
          0   the status was shown (also when not logged in)
          1   the keychain or the shared container cannot be opened
          2   invalid command line

        """

    static func run(_ arguments: [String], io: ProgramIO, environment: [String: String]) async -> ExitCode {
        let parsed: ParsedArguments
        switch SessionCommandIO.parse(arguments, command: "status", help: help, flags: ["--json"], options: [], io: io)
        {
        case .run(let arguments): parsed = arguments
        case .done(let exit): return exit
        }
        let output = SessionCommandIO(command: "status", io: io, json: parsed.has("--json"))
        let assembly: ClientAssembly
        do {
            assembly = try ClientAssembly(environment: environment)
        } catch {
            return output.failure("\(error)")
        }
        let status = Status.gather(assembly)
        if output.json { output.io.writeJSON(status.json) } else { io.out.write(status.text) }
        return .success
    }
}

/// Everything `share status` shows, gathered once.
struct Status {
    /// A stored session: its id and expiry, or why it could not be read.
    struct StoredSession {
        var sessionID: String?
        var refreshExpiresAt: Int64?
        var error: String?
    }

    var server: String?
    var user: String?
    var parent: StoredSession?
    var child: StoredSession?
    var inbox: Result<InboxScan, InboxError>
    /// The daemon's answer to `status`; nil when it is not running.
    var daemon: [String: Any]?
    var daemonRunning: Bool
    let now: Int64

    var loggedIn: Bool { parent?.sessionID != nil }

    static func gather(_ assembly: ClientAssembly) -> Status {
        let state = assembly.container.state
        let server = (try? state.value(for: .serverOrigin)) ?? nil
        var parent: StoredSession?
        var child: StoredSession?
        if let server, let connection = try? assembly.connection(to: server) {
            parent = stored(.parent, in: connection)
            child = stored(.child, in: connection)
        }
        let inbox = Result { () throws(InboxError) -> InboxScan in
            try FileShareInbox(directory: assembly.container.inboxPath, maximumAge: assembly.inboxMaximumAge).scan()
        }
        let answer = DaemonControl.request("status", path: DaemonControl.socketPath(of: assembly))
        let daemon = answer.flatMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        return Status(
            server: server, user: (try? state.value(for: .accountUsername)) ?? nil, parent: parent, child: child,
            inbox: inbox, daemon: daemon, daemonRunning: answer != nil, now: UnixClock.system.seconds())
    }

    private static func stored(_ role: SessionRole, in connection: ServerConnection) -> StoredSession? {
        do {
            guard let tokens = try connection.storage.read(role) else { return nil }
            return StoredSession(sessionID: tokens.sessionID, refreshExpiresAt: tokens.refreshExpiresAt)
        } catch {
            return StoredSession(error: error.description)
        }
    }

    // MARK: - JSON

    var json: [String: Any] {
        var object: [String: Any] = [
            "logged_in": loggedIn, "server": server ?? NSNull(), "user": user ?? NSNull(),
            "parent": sessionJSON(parent), "child": sessionJSON(child),
        ]
        switch inbox {
        case .success(let scan):
            object["inbox"] = [
                "waiting": scan.entries.count, "quarantined": scan.quarantined.count, "stale": scan.stale.count,
            ]
        case .failure(let error):
            object["inbox"] = ["error": error.description]
        }
        if let daemon {
            object["daemon"] = daemon
        } else {
            object["daemon"] = daemonRunning ? ["error": "the daemon's answer is not a JSON object"] : NSNull()
        }
        return object
    }

    private func sessionJSON(_ session: StoredSession?) -> Any {
        guard let session else { return NSNull() }
        if let error = session.error { return ["error": error] }
        var object: [String: Any] = ["session_id": session.sessionID ?? NSNull()]
        if let expiry = session.refreshExpiresAt {
            object["refresh_expires_at"] = RFC3339.string(unixSeconds: expiry)
            object["expired"] = expiry <= now
        }
        return object
    }

    // MARK: - Text

    var text: String {
        var lines: [String] = []
        if let server {
            lines.append("server: \(server)")
            lines.append("user: \(user ?? "unknown")")
            if !loggedIn { lines.append("not logged in: run `share login --server \(server) --user NAME`") }
        } else {
            lines.append("not logged in: run `share login --server URL --user NAME`")
        }
        if server != nil {
            lines.append("parent session: " + sessionText(parent, missing: "none (log in)"))
            lines.append("child session: " + sessionText(child, missing: "none (share-daemon creates it)"))
        }
        switch inbox {
        case .success(let scan):
            lines.append(
                "share inbox: \(scan.entries.count) waiting, \(scan.quarantined.count) quarantined, "
                    + "\(scan.stale.count) older than the maximum age")
        case .failure(let error):
            lines.append("share inbox: cannot be read: \(error)")
        }
        lines += daemonText
        return lines.map { $0 + "\n" }.joined()
    }

    private func sessionText(_ session: StoredSession?, missing: String) -> String {
        guard let session else { return missing }
        if let error = session.error { return "unreadable (\(error))" }
        guard let id = session.sessionID, let expiry = session.refreshExpiresAt else { return missing }
        let verb = expiry <= now ? "expired" : "expires"
        return "\(id) (refresh token \(verb) \(RFC3339.string(unixSeconds: expiry)))"
    }

    private var daemonText: [String] {
        guard daemonRunning else { return ["daemon: not running"] }
        guard let daemon else { return ["daemon: running (its answer could not be read)"] }
        var lines = ["daemon: running" + (daemon["pid"] == nil ? "" : " (pid \(Self.scalar(daemon["pid"])))")]
        if let outbox = daemon["outbox"] as? [String: Any] {
            let counts = ["pending", "sending", "sent", "failed"].map { "\(Self.scalar(outbox[$0] ?? 0)) \($0)" }
            lines.append("  outbox: " + counts.joined(separator: ", "))
        }
        if let child = daemon["child_session"] { lines.append("  child session: \(Self.scalar(child))") }
        if let last = daemon["last_pass_at"], !(last is NSNull) { lines.append("  last pass: \(Self.scalar(last))") }
        for key in daemon.keys.sorted()
        where !["pid", "outbox", "child_session", "last_pass_at", "failed", "logged_in", "server", "quarantined"]
            .contains(key)
        {
            lines.append("  \(key.replacingOccurrences(of: "_", with: " ")): \(Self.scalar(daemon[key]))")
        }
        for entry in daemon["quarantined"] as? [String] ?? [] { lines.append("  quarantined: \(entry)") }
        for item in daemon["failed"] as? [[String: Any]] ?? [] {
            let id = Self.scalar(item["client_msg_id"])
            let target = (item["target"] as? [String: Any])?["display_path"] ?? item["target"]
            lines.append("  failed: \(id) to \(Self.scalar(target)): \(Self.scalar(item["reason"]))")
        }
        return lines
    }

    /// A JSON value as text: strings as they are, anything else compactly.
    private static func scalar(_ value: Any?) -> String {
        switch value {
        case nil, is NSNull: return "-"
        case let text as String: return text
        case let number as NSNumber: return number.stringValue
        case let other?:
            guard JSONSerialization.isValidJSONObject(other),
                let data = try? JSONSerialization.data(withJSONObject: other, options: [.sortedKeys])
            else { return "\(other)" }
            return String(decoding: data, as: UTF8.self)
        }
    }
}
