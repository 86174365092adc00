import Foundation
import ShareKitAppSupport
import ShareKitClientAssembly
import ShareKitCore
import ShareKitDaemonControlInterface
import ShareKitInboxInterface
import ShareKitOutboxInterface
import ShareKitSessionsInterface
import ShareKitSharedStateInterface

/// `share status`: what this device knows, for a person or a script: the
/// server and account, which sessions are stored (ids and expiry, never a
/// token), the share inbox, and what the daemon says about itself.
/// Informational: it exits 0 whether or not anyone is logged in.
enum StatusCommand {
    static var help: String { t(.statusHelp) }

    static func run(_ arguments: [String], io: ProgramIO, environment: [String: String]) async -> ExitCode {
        let parsed: ParsedArguments
        switch SessionCommandIO.parse(
            arguments, command: "status", help: help, declaration: ShareCommands.status, io: io)
        {
        case .run(let arguments): parsed = arguments
        case .done(let exit): return exit
        }
        let output = SessionCommandIO(command: "status", io: io, json: parsed.has(Options.json))
        let assembly: ClientAssembly
        do {
            assembly = try ClientAssembly(environment: environment)
        } catch {
            return output.failure(LocalizedText(describing: error))
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
    /// Which kind of server the account is on (nil without an account).
    var serverKind: ServerKind?
    var user: String?
    /// How many accounts this device keeps besides the current one.
    var otherAccounts = 0
    var parent: StoredSession?
    var child: StoredSession?
    var inbox: Result<InboxScan, InboxError>
    /// The daemon's answer to `status`, its strings already safe for a
    /// terminal; ``DaemonControlError/notRunning`` when no daemon listens.
    var daemon: Result<DaemonStatusReport, DaemonControlError>
    /// The latest shares share-daemon delivered or refused (its outbox,
    /// read whether it runs or not), newest first.
    var outcomes: [OutboxItem] = []
    /// The id a person types for each share named here (``ShareLocator/shortIDs(including:)``).
    var shortIDs: [String: String] = [:]
    let now: Int64

    var loggedIn: Bool { parent?.sessionID != nil }

    /// Gathers what this device knows.
    /// - Parameters:
    ///   - assembly: the client composition root.
    ///   - control: the daemon's control socket; the assembly's unless a test fakes it.
    static func gather(_ assembly: ClientAssembly, daemon control: (any DaemonControlling)? = nil) -> Status {
        let control = control ?? assembly.daemonControl()
        let account = try? assembly.accounts.current()
        let server = account?.origin
        let accounts = (try? assembly.accounts.storedAccounts()) ?? []
        var parent: StoredSession?
        var child: StoredSession?
        if let server {
            // Only what is stored: no HTTP client, so no libcurl is started for nothing.
            let storage = assembly.sessionStorage(at: server)
            parent = stored(.parent, in: storage)
            child = stored(.child, in: storage)
        }
        let inbox = Result { () throws(InboxError) -> InboxScan in
            try assembly.shareInbox().scan()
        }
        let outbox = (try? assembly.existingDaemonOutbox()) ?? nil
        let finished = ((try? outbox?.list(states: [.sent, .failed])) ?? nil) ?? []
        let daemon = control.status()
        let reported = (try? daemon.get().failed?.map(\.clientMsgID)) ?? []
        let shortIDs = (try? ShareLocator(assembly: assembly, daemon: control))?.shortIDs(including: reported) ?? [:]
        return Status(
            server: server, serverKind: account?.serverKind, user: account?.username,
            otherAccounts: accounts.filter { !$0.isCurrent }.count,
            parent: parent, child: child,
            inbox: inbox, daemon: daemon,
            outcomes: Array(finished.sorted { $0.updatedAt > $1.updatedAt }.prefix(3)), shortIDs: shortIDs,
            now: UnixClock.system.seconds())
    }

    private static func stored(_ role: SessionRole, in storage: any SessionTokenStorage) -> StoredSession? {
        do {
            guard let tokens = try storage.read(role) else { return nil }
            return StoredSession(sessionID: tokens.sessionID, refreshExpiresAt: tokens.refreshExpiresAt)
        } catch {
            return StoredSession(error: error.description)
        }
    }

    // MARK: - JSON

    /// The `--json` object.
    var json: JSONValue {
        var object: [String: JSONValue] = [
            "logged_in": JSONValue(loggedIn), "server": JSONValue(server), "user": JSONValue(user),
            "server_kind": JSONValue(serverKind?.name),
            "parent": sessionJSON(parent), "child": sessionJSON(child), "other_accounts": JSONValue(otherAccounts),
        ]
        switch inbox {
        case .success(let scan):
            object["inbox"] = [
                "waiting": JSONValue(scan.entries.count), "quarantined": JSONValue(scan.quarantined.count),
                "stale": JSONValue(scan.stale.count),
            ]
        case .failure(let error):
            object["inbox"] = ["error": JSONValue(error.description)]
        }
        switch daemon {
        case .success(let status): object["daemon"] = status.jsonValue
        case .failure(.notRunning): object["daemon"] = .null
        case .failure(let failure): object["daemon"] = ["error": JSONValue(failure.description)]
        }
        return .object(object)
    }

    private func sessionJSON(_ session: StoredSession?) -> JSONValue {
        guard let session else { return nil }
        if let error = session.error { return ["error": JSONValue(error)] }
        var object: [String: JSONValue] = ["session_id": JSONValue(session.sessionID)]
        if let expiry = session.refreshExpiresAt {
            object["refresh_expires_at"] = JSONValue(RFC3339.string(unixSeconds: expiry))
            object["expired"] = JSONValue(expiry <= now)
        }
        return .object(object)
    }

    // MARK: - Text

    /// What a person reads, in the person's language. Every string from
    /// elsewhere (session ids the server chose, the keychain's account, a
    /// stored reason, the daemon's answer) is neutralised for the terminal.
    var text: String {
        let clean = TerminalText.neutralised
        var lines: [String] = []
        if let server {
            lines.append(t(.statusServer, ["server": clean(server)]))
            if case .matrix(let homeserver) = serverKind {
                lines.append(t(.statusServerKindMatrix, ["homeserver": clean(homeserver)]))
            }
            lines.append(t(.statusUser, ["user": user.map(clean) ?? t(.statusUnknownUser)]))
            if !loggedIn { lines.append(t(.statusNotLoggedInAt, ["server": clean(server)])) }
        } else {
            lines.append(t(.statusNotLoggedIn))
        }
        if server != nil {
            lines.append(t(.statusParentSession, ["session": sessionText(parent, missing: t(.statusParentMissing))]))
            lines.append(t(.statusChildSession, ["session": sessionText(child, missing: t(.statusChildMissing))]))
        }
        if otherAccounts > 0 { lines.append(t(.statusOtherAccounts, ["count": otherAccounts])) }
        switch inbox {
        case .success(let scan):
            lines.append(
                t(
                    .statusInbox,
                    ["waiting": scan.entries.count, "quarantined": scan.quarantined.count, "stale": scan.stale.count]))
        case .failure(let error):
            lines.append(
                t(.statusInboxUnreadable, ["error": clean(LocalizedText(describing: error).localized)]))
        }
        lines += daemonText
        for item in outcomes {
            // Targets and reasons come from the server and other users: shown, never obeyed.
            let target = TerminalText.neutralised(item.target.displayPath)
            let when = RFC3339.string(unixSeconds: item.updatedAt / 1000)
            lines.append(
                item.state == .sent
                    ? t(.statusDaemonSent, ["id": named(item.clientMsgID.description), "target": target, "time": when])
                    : t(
                        .statusDaemonRefused,
                        [
                            "id": named(item.clientMsgID.description), "target": target,
                            "reason": item.lastError.map(InboxCommand.kept) ?? t(.refusedFallback), "time": when,
                        ]))
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// Whom the daemon serves and when it last reached that server; the
    /// daemon's strings are neutralised already.
    private func servedText(_ daemon: DaemonStatusReport) -> [String] {
        guard let served = daemon.server else {
            // A daemon of an earlier version says no server only when it has none either.
            return daemon.loggedIn == false ? [t(.statusDaemonServesNone)] : []
        }
        var lines = [
            daemon.user.map { t(.statusDaemonServes, ["user": $0, "server": served]) }
                ?? t(.statusDaemonServesServer, ["server": served])
        ]
        if let reached = daemon.lastReachedAt {
            lines.append(t(.statusDaemonLastReached, ["time": reached]))
        } else if daemon.user != nil || daemon.loggedIn == true {
            lines.append(t(.statusDaemonNotReached))
        }
        if let server, server != served {
            lines.append(t(.statusDaemonNotCurrent, ["server": TerminalText.neutralised(server)]))
        }
        return lines
    }

    /// A share's id as a person types it (its short id), neutralised.
    private func named(_ id: String) -> String { shortIDs[id] ?? TerminalText.neutralised(id) }

    private func sessionText(_ session: StoredSession?, missing: String) -> String {
        guard let session else { return missing }
        if let error = session.error { return t(.statusSessionUnreadable, ["error": TerminalText.neutralised(error)]) }
        guard let id = session.sessionID, let expiry = session.refreshExpiresAt else { return missing }
        let time = RFC3339.string(unixSeconds: expiry)
        // The server chose the id: it may carry escape sequences.
        return t(
            expiry <= now ? .statusSessionExpired : .statusSessionExpires,
            ["id": TerminalText.neutralised(id), "time": time])
    }

    private var daemonText: [String] {
        let daemon: DaemonStatusReport
        switch self.daemon {
        case .success(let status): daemon = status
        case .failure(.notRunning): return [t(.statusDaemonNotRunning)]
        case .failure(let failure):
            return [t(.statusDaemonUnreadable, ["error": TerminalText.neutralised(failure.description)])]
        }
        var lines = [t(.statusDaemonRunning, ["pid": daemon.pid])]
        lines += servedText(daemon)
        if let outbox = daemon.outbox {
            lines.append(
                t(
                    .statusDaemonOutbox,
                    [
                        "pending": outbox.pending, "sending": outbox.sending, "sent": outbox.sent,
                        "failed": outbox.failed,
                    ]))
        }
        if let child = daemon.childSession { lines.append(t(.statusDaemonChild, ["session": child])) }
        if let last = daemon.lastPassAt { lines.append(t(.statusDaemonLastPass, ["time": last])) }
        if let error = daemon.lastError { lines.append(t(.statusDaemonLastError, ["error": error])) }
        if let last = daemon.lastTakeoverAt { lines.append(t(.statusDaemonLastTakeover, ["time": last])) }
        if let count = daemon.takenOver { lines.append(t(.statusDaemonTakenOver, ["count": count])) }
        for entry in daemon.quarantined ?? [] { lines.append(t(.statusDaemonQuarantined, ["entry": entry])) }
        for item in daemon.failed ?? [] {
            lines.append(
                t(
                    .statusDaemonFailed,
                    ["id": named(item.clientMsgID), "target": item.target, "reason": InboxCommand.kept(item.reason)]))
        }
        return lines
    }
}
