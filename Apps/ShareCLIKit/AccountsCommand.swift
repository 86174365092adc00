import Foundation
import ShareKitAppSupport
import ShareKitClientAssembly
import ShareKitCore
import ShareKitDaemonControlInterface
import ShareKitSessionsInterface

/// `share accounts`: every account on this device (a server and the
/// username signed in there), which one is current, and whether its
/// session still works; `share accounts use SERVER` makes another one
/// current (and a running daemon follows). Reads the keychain only: no
/// server is asked, so it answers offline.
enum AccountsCommand {
    static var help: String { t(.accountsHelp) }

    /// The subcommands of `share accounts`, in help order.
    static let subcommands = ShareCommands.accounts.subcommands.map(\.name)

    static func run(_ arguments: [String], io: ProgramIO, environment: [String: String]) async -> ExitCode {
        // `share accounts` alone (or with options only) lists.
        let sub = arguments.first.flatMap { $0.hasPrefix("-") ? nil : $0 } ?? "list"
        let rest = arguments.first == sub ? Array(arguments.dropFirst()) : arguments
        guard subcommands.contains(sub) else {
            let message = t(
                .unknownSubcommand, ["sub": sub, "suggestion": Suggestion.didYouMean(sub, in: subcommands)])
            io.err.write("share accounts: " + t(.runHelp, ["message": message, "command": "share accounts"]) + "\n")
            return .usage
        }
        let parsed: ParsedArguments
        do {
            parsed = try ParsedArguments(
                rest, command: ShareCommands.declaration("accounts", sub) ?? ShareCommands.accounts)
            let wanted = sub == "use" ? 1 : 0
            if parsed.asksForHelp {
                io.out.write(help)
                return .success
            }
            guard parsed.positionals.count == wanted else {
                throw ProgramError.usage(
                    sub == "use"
                        ? localized(.accountsUseNeedsServer)
                        : localized(.unexpectedArgument, ["argument": parsed.positionals[0]]))
            }
        } catch {
            let message = LocalizedText(describing: error).localized
            io.err.write("share accounts: " + t(.runHelp, ["message": message, "command": "share accounts"]) + "\n")
            return .usage
        }
        let output = SessionCommandIO(command: "accounts", io: io, json: parsed.has(Options.json))
        let assembly: ClientAssembly
        do {
            assembly = try ClientAssembly(environment: environment)
        } catch {
            return output.failure(LocalizedText(describing: error))
        }
        if sub == "use" { return use(parsed.positionals[0], assembly: assembly, output: output) }
        return list(assembly: assembly, output: output)
    }

    // MARK: - list

    /// An account's session as the keychain holds it.
    enum SessionState {
        case ok(expires: Int64)
        case expired(at: Int64)
        case none
        case unreadable(String)

        /// The word of `--json`'s `session`.
        var word: String {
            switch self {
            case .ok: return "ok"
            case .expired: return "expired"
            case .none: return "none"
            case .unreadable: return "unreadable"
            }
        }
    }

    /// The parent session of the account at `origin`, read without the network.
    static func session(at origin: String, assembly: ClientAssembly, now: Int64) -> SessionState {
        do {
            let connection = try assembly.connection(to: origin, loadsLibraryEarly: false)
            guard let tokens = try connection.storage.read(.parent) else { return .none }
            let expiry = tokens.refreshExpiresAt
            return expiry <= now ? .expired(at: expiry) : .ok(expires: expiry)
        } catch {
            return .unreadable("\(error)")
        }
    }

    static func list(assembly: ClientAssembly, output: SessionCommandIO) -> ExitCode {
        let accounts: [StoredAccount]
        do {
            accounts = try assembly.accounts.storedAccounts()
        } catch {
            return output.failure(LocalizedText(describing: error))
        }
        let now = UnixClock.system.seconds()
        let sessions = accounts.map { session(at: $0.account.origin, assembly: assembly, now: now) }
        if output.json {
            output.io.writeJSON([
                "current": JSONValue(accounts.first(where: \.isCurrent)?.account.origin),
                "accounts": .array(
                    zip(accounts, sessions).map { stored, session in
                        var object: [String: JSONValue] = [
                            "server": JSONValue(stored.account.origin), "user": JSONValue(stored.account.username),
                            "current": JSONValue(stored.isCurrent), "session": JSONValue(session.word),
                        ]
                        switch session {
                        case .ok(let expires), .expired(let expires):
                            object["refresh_expires_at"] = JSONValue(RFC3339.string(unixSeconds: expires))
                        case .unreadable(let why): object["error"] = JSONValue(why)
                        case .none: break
                        }
                        return .object(object)
                    }),
            ])
            return .success
        }
        let clean = TerminalText.neutralised
        var lines: [String] = []
        if accounts.isEmpty { lines.append(t(.accountsNone)) }
        for (stored, session) in zip(accounts, sessions) {
            let state: String
            switch session {
            case .ok(let expires):
                state = t(.accountsSessionUntil, ["time": RFC3339.string(unixSeconds: expires)])
            case .expired(let at): state = t(.accountsSessionExpired, ["time": RFC3339.string(unixSeconds: at)])
            case .none: state = t(.accountsSessionNone)
            case .unreadable(let why): state = t(.statusSessionUnreadable, ["error": clean(why)])
            }
            // Names and addresses come from the keychain, written by whoever could: shown, never obeyed.
            lines.append(
                (stored.isCurrent ? "* " : "  ")
                    + t(
                        .accountsLine,
                        [
                            "server": clean(stored.account.origin),
                            "user": stored.account.username.map(clean) ?? t(.statusUnknownUser), "session": state,
                        ]))
        }
        if !accounts.isEmpty, !accounts.contains(where: \.isCurrent) { lines.append(t(.accountsNoneCurrent)) }
        output.io.out.write(lines.map { $0 + "\n" }.joined())
        return .success
    }

    // MARK: - use

    static func use(_ server: String, assembly: ClientAssembly, output: SessionCommandIO) -> ExitCode {
        guard let origin = ServerOrigin.parse(server) else {
            return output.usage(localized(.accountsServerForm, ["server": server]))
        }
        let chosen: SignedInAccount
        do {
            guard let found = try assembly.accounts.use(at: origin) else {
                return output.failure(localized(.accountsNoAccount, ["server": origin]))
            }
            chosen = found
        } catch {
            return output.failure(LocalizedText(describing: error))
        }
        // A running daemon serves the current account: it follows at once.
        assembly.daemonControl().wake()
        let session = session(at: origin, assembly: assembly, now: UnixClock.system.seconds())
        if output.json {
            output.io.writeJSON([
                "status": "switched", "server": JSONValue(origin), "user": JSONValue(chosen.username),
                "session": JSONValue(session.word),
            ])
            return .success
        }
        let user = chosen.username.map(TerminalText.neutralised) ?? t(.statusUnknownUser)
        var lines = [t(.accountsNowUsing, ["user": user, "server": TerminalText.neutralised(origin)])]
        if case .ok = session {
        } else {
            lines.append(t(.statusNotLoggedInAt, ["server": TerminalText.neutralised(origin)]))
        }
        output.io.out.write(lines.map { $0 + "\n" }.joined())
        return .success
    }
}
