import AppSupport
import ClientAssembly
import Foundation
import HTTPInterface
import MessagesInterface
import ShareCore
import ShareInboxInterface

/// `share inbox`: what waits in the share inbox, and acting on one entry.
enum InboxCommand {
    static let help = """
        Usage: share inbox list [--json]
               share inbox show ID [--json]
               share inbox retry ID [--json] [--progress auto|bar|lines|off] [--on-cancel keep|remove]
                                [--verbose]
               share inbox drop ID [--json]

        The share inbox holds shares that were not sent yet: share send keeps a share
        there when the server cannot be reached or no session is usable, and
        share-daemon takes entries over into its outbox and sends them.

          list    every waiting entry (id, age, target, files, attempts, last error),
                  entries being sent right now (locked), entries older than the maximum
                  age, and quarantined entries with the reason.
          show    one entry's manifest (never a token: manifests hold none).
          retry   send one entry now with this program's session; the outcome and exit
                  code are those of share send (--verbose or SHAREKIT_VERBOSE=1: each step).
          drop    delete one entry (waits for a sender that holds it), or a
                  quarantined one.

        Exit codes: 0 done, 1 no such entry or it is busy, 2 invalid command line,
        3 retried and kept again, 4 retried and refused, 130 interrupted.

        """

    static func run(_ arguments: [String], io: ProgramIO, environment: [String: String]) async -> ExitCode {
        guard let sub = arguments.first, sub != "--help", sub != "-h" else {
            io.out.write(help)
            return arguments.isEmpty ? .usage : .success
        }
        let rest = Array(arguments.dropFirst())
        let parsed: ParsedArguments
        do {
            parsed = try ParsedArguments(
                rest, flags: ["--json", "--no-progress", "--verbose"],
                options: ["--on-cancel", "--server", "--progress"])
            let needsID = sub != "list"
            guard parsed.positionals.count == (needsID ? 1 : 0) else {
                throw UsageError(needsID ? "share inbox \(sub) needs one entry ID" : "share inbox list takes no ID")
            }
        } catch {
            io.err.write("share inbox: \(error); run 'share inbox --help'\n")
            return .usage
        }
        let json = parsed.has("--json")
        let inbox: any ShareInboxStoring
        let assembly: ClientAssembly
        do {
            assembly = try ClientAssembly(environment: environment)
            inbox = assembly.shareInbox()
        } catch {
            io.err.write("share inbox: \(error)\n")
            return .failure
        }
        switch sub {
        case "list":
            return list(inbox, assembly: assembly, io: io, json: json)
        case "show":
            return show(inbox, id: parsed.positionals[0], io: io, json: json)
        case "drop":
            return drop(inbox, id: parsed.positionals[0], io: io, json: json)
        case "retry":
            return await retry(parsed, inbox: inbox, io: io, environment: environment)
        default:
            io.err.write("share inbox: unknown subcommand '\(sub)'; run 'share inbox --help'\n")
            return .usage
        }
    }

    // MARK: - list and show

    static func list(_ inbox: any ShareInboxStoring, assembly: ClientAssembly, io: ProgramIO, json: Bool) -> ExitCode {
        guard let scan = scanOrReport(inbox, io: io) else { return .failure }
        let stale = Set(scan.stale)
        let daemon = daemonOutbox(assembly)
        if json {
            io.writeJSON([
                "entries": .array(scan.entries.map { entryObject($0, stale: stale.contains($0.id)) }),
                "quarantined": .array(
                    scan.quarantined.map {
                        ["id": JSONValue($0.id), "reason": JSONValue($0.reason), "directory": JSONValue($0.directory)]
                    }),
                "stale": JSONValue(scan.stale),
                "daemon_outbox": daemonOutboxJSON(daemon),
            ])
            return .success
        }
        defer { io.out.write(daemonOutboxText(daemon)) }
        if scan.entries.isEmpty && scan.quarantined.isEmpty {
            io.out.write("the share inbox is empty\n")
            return .success
        }
        for entry in scan.entries {
            let m = entry.manifest
            let bytes = m.attachments.reduce(Int64(0)) { $0 + $1.size }
            var state = entry.isLocked ? "sending now" : "waiting"
            if stale.contains(entry.id) { state += ", older than the maximum age" }
            // Manifests and their reasons hold other users' words (target
            // names, the server's problem details): shown, never obeyed.
            io.out.write(
                "\(entry.id)  \(age(entry.ageSeconds))  \(TerminalText.neutralised(m.target.displayPath))  "
                    + "\(m.attachments.count) file(s), \(ProgressBar.formatBytes(bytes))  "
                    + "attempts \(m.attempts)  \(state)\n")
            if let error = m.lastError { io.out.write("    last error: \(TerminalText.neutralised(error))\n") }
        }
        for entry in scan.quarantined {
            io.out.write(
                "\(TerminalText.neutralised(entry.id))  quarantined: \(TerminalText.neutralised(entry.reason))\n")
        }
        if !scan.stale.isEmpty {
            io.err.write(
                "share inbox: \(scan.stale.count) entr\(scan.stale.count == 1 ? "y is" : "ies are") older than the "
                    + "maximum age; send them (share inbox retry ID) or drop them (share inbox drop ID)\n")
        }
        return .success
    }

    static func show(_ inbox: any ShareInboxStoring, id: String, io: ProgramIO, json: Bool) -> ExitCode {
        guard let scan = scanOrReport(inbox, io: io) else { return .failure }
        if let entry = scan.entries.first(where: { $0.id == id }) {
            if json {
                io.writeJSON(entryObject(entry, stale: scan.stale.contains(id)))
                return .success
            }
            let m = entry.manifest
            var text = """
                id:            \(entry.id)
                client_msg_id: \(m.clientMsgID)
                server:        \(TerminalText.neutralised(m.serverOrigin))
                target:        \(TerminalText.neutralised(m.target.displayPath)) \
                (\(m.target.kind.rawValue):\(TerminalText.neutralised(m.target.id)))
                created:       \(m.createdAt) (\(age(entry.ageSeconds)) ago)
                attempts:      \(m.attempts)\(entry.isLocked ? " (being sent now)" : "")

                """
            let safe = TerminalText.neutralised
            if let title = m.title { text += "title:         \(safe(title))\n" }
            if let error = m.lastError { text += "last error:    \(safe(error))\n" }
            if !m.comment.isEmpty {
                text += "text:\n" + m.comment.split(separator: "\n").map { "  \(safe(String($0)))\n" }.joined()
            }
            for a in m.attachments {
                let done = a.completedUploadID.map { " (uploaded as \(safe($0)))" } ?? ""
                text +=
                    "file:          \(safe(a.fileName))  \(safe(a.contentType))  \(ProgressBar.formatBytes(a.size))\(done)\n"
            }
            io.out.write(text)
            return .success
        }
        if let entry = scan.quarantined.first(where: { $0.id == id }) {
            if json {
                io.writeJSON([
                    "id": JSONValue(entry.id), "quarantined": true, "reason": JSONValue(entry.reason),
                    "directory": JSONValue(entry.directory),
                ])
            } else {
                io.out.write(
                    "\(TerminalText.neutralised(entry.id)): quarantined: \(TerminalText.neutralised(entry.reason))\n"
                        + "    kept in \(TerminalText.neutralised(entry.directory))\n")
            }
            return .success
        }
        io.err.write("share inbox: no entry \(id) (share inbox list shows what waits)\n")
        return .failure
    }

    /// The inbox as it is now, or nil after saying why it cannot be read.
    static func scanOrReport(_ inbox: any ShareInboxStoring, io: ProgramIO) -> InboxScan? {
        do {
            return try inbox.scan()
        } catch {
            io.err.write("share inbox: \(error)\n")
            return nil
        }
    }

    // MARK: - drop and retry

    static func drop(_ inbox: any ShareInboxStoring, id: String, io: ProgramIO, json: Bool) -> ExitCode {
        do {
            guard try inbox.drop(id: id) else {
                io.err.write("share inbox: no entry \(id)\n")
                return .failure
            }
        } catch {
            io.err.write("share inbox: \(error)\n")
            return .failure
        }
        if json { io.writeJSON(["status": "dropped", "id": JSONValue(id)]) } else { io.out.write("dropped \(id)\n") }
        return .success
    }

    static func retry(
        _ parsed: ParsedArguments, inbox: any ShareInboxStoring, io: ProgramIO, environment: [String: String]
    ) async -> ExitCode {
        let id = parsed.positionals[0]
        let report = SendReport(io: io, json: parsed.has("--json"), verbose: parsed.verbose(environment: environment))
        guard let policy = CancelPolicy(rawValue: parsed.value("--on-cancel") ?? "keep") else {
            return report.usage("--on-cancel must be keep or remove")
        }
        let mode: ProgressMode
        do {
            mode = try ProgressMode.parse(parsed.value("--progress"), noProgress: parsed.has("--no-progress"))
        } catch {
            return report.usage("\(error)")
        }
        let held: (any InboxEntryLock, InboxEntry)?
        do {
            held = try inbox.lock(id: id, wait: false)
        } catch {
            return report.failure(error.description)
        }
        guard let (lock, entry) = held else {
            let exists = ((try? inbox.scan())?.entries ?? []).contains { $0.id == id }
            return report.failure(
                exists ? "entry \(id) is being sent by another process right now" : "no entry \(id)")
        }
        let context: CLIContext
        do {
            context = try CLIContext(
                environment: environment, server: parsed.value("--server") ?? entry.manifest.serverOrigin)
        } catch {
            lock.release()
            return report.failure("\(error)")
        }
        let interrupt = InterruptHandler()
        defer { interrupt.restore() }
        let cancellation = HTTPCancellation()
        interrupt.onInterrupt = { cancellation.cancel() }
        let limits = await context.instanceLimits()
        let delivery = EntryDelivery(
            inbox: inbox, sender: context.sender(limits: limits?.messageLimits),
            progress: ProgressBar(sink: io.err, mode: mode),
            cancellation: cancellation, onCancel: policy, step: report.step)
        let outcome = await delivery.deliver(entry, lock: lock)
        interrupt.onInterrupt = nil
        return context.finish(outcome, entry: entry, report: report)
    }

    // MARK: - The daemon's outbox

    /// What share-daemon says about the shares it took over (its outbox
    /// counts and the refused ones with reasons, every string safe for a
    /// terminal), or nil when it is not running or its answer is unreadable.
    static func daemonOutbox(_ assembly: ClientAssembly) -> DaemonStatusReport? {
        try? DaemonControl.status(path: DaemonControl.socketPath(of: assembly)).get()
    }

    /// The `daemon_outbox` member of `share inbox list --json`: the outbox counts and the refused shares.
    static func daemonOutboxJSON(_ daemon: DaemonStatusReport?) -> JSONValue {
        guard let daemon else { return nil }
        let object = daemon.jsonValue
        return ["outbox": object["outbox"] ?? nil, "failed": object["failed"] ?? []]
    }

    /// The lines `share inbox list` adds about the daemon's outbox.
    static func daemonOutboxText(_ daemon: DaemonStatusReport?) -> String {
        guard let daemon else {
            return "share-daemon is not running: shares it took over earlier are not shown (share status)\n"
        }
        var text = ""
        if let outbox = daemon.outbox {
            text += "share-daemon's outbox: \(outbox.pending + outbox.sending) to send, \(outbox.failed) refused\n"
        }
        for item in daemon.failed ?? [] {
            text +=
                "\(item.clientMsgID)  refused by the server, not sent: \(item.reason) (to \(item.target))\n"
        }
        return text
    }

    // MARK: - Formatting

    /// One entry as `share inbox list --json` and `show --json` print it.
    static func entryObject(_ entry: InboxEntry, stale: Bool) -> JSONValue {
        let m = entry.manifest
        return [
            "id": JSONValue(entry.id), "client_msg_id": JSONValue(m.clientMsgID),
            "server_origin": JSONValue(m.serverOrigin), "target": SendReport.target(m.target),
            "comment": JSONValue(m.comment), "title": JSONValue(m.title), "created_at": JSONValue(m.createdAt),
            "age_seconds": JSONValue(entry.ageSeconds), "attempts": JSONValue(m.attempts),
            "last_error": JSONValue(m.lastError), "locked": JSONValue(entry.isLocked), "stale": JSONValue(stale),
            "attachments": .array(
                m.attachments.map {
                    [
                        "file_name": JSONValue($0.fileName), "content_type": JSONValue($0.contentType),
                        "size": JSONValue($0.size), "completed_upload_id": JSONValue($0.completedUploadID),
                    ]
                }),
        ]
    }

    /// `42s`, `5m`, `3h`, `2d`.
    static func age(_ seconds: Int64) -> String {
        switch seconds {
        case ..<60: return "\(max(0, seconds))s"
        case ..<3600: return "\(seconds / 60)m"
        case ..<86_400: return "\(seconds / 3600)h"
        default: return "\(seconds / 86_400)d"
        }
    }
}
