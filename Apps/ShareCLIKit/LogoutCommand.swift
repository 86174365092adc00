import Foundation
import ShareKitAppSupport
import ShareKitClientAssembly
import ShareKitCore
import ShareKitDaemonControlInterface
import ShareKitSessionsInterface
import ShareKitSharedStateInterface

/// `share logout`: ends the session of one account (the current one, or
/// `--server`'s) on its server when it can be reached (best effort), then
/// forgets everything of that account on this device: both families'
/// tokens, its recent targets and limits, its username. The accounts at
/// other servers stay, and the person is told how to choose one of them.
/// `--all` does the same for every account on this device.
enum LogoutCommand {
    static var help: String { t(.logoutHelp) }

    static func run(_ arguments: [String], io: ProgramIO, environment: [String: String]) async -> ExitCode {
        let parsed: ParsedArguments
        switch SessionCommandIO.parse(
            arguments, command: "logout", help: help, declaration: ShareCommands.logout, io: io)
        {
        case .run(let arguments): parsed = arguments
        case .done(let exit): return exit
        }
        let output = SessionCommandIO(command: "logout", io: io, json: parsed.has(Options.json))
        let all = parsed.has(Options.allAccounts)
        var origin: String?
        if let server = parsed.value(Options.server) {
            guard !all else { return output.usage(localized(.logoutAllOrServer)) }
            guard let given = ServerOrigin.parse(server) else {
                return output.usage(localized(.serverForm, ["server": server]))
            }
            origin = given
        }
        let assembly: ClientAssembly
        do {
            assembly = try ClientAssembly(environment: environment)
        } catch {
            return output.failure(LocalizedText(describing: error))
        }
        defer {
            // A running daemon serves the current account: it follows at once.
            assembly.daemonControl().wake()
        }
        if all { return await logOutEverywhere(assembly, output: output) }

        let current = try? assembly.accounts.current()
        origin = origin ?? current?.origin
        guard let origin else {
            var logout = Logout(account: nil)
            logout.serverResult = "not_logged_in"
            logout.lines.append(t(.logoutNoServer))
            logout.forget(.logoutWhatRecents, as: "recent_targets") {
                try assembly.container.state.clearUnscopedValues()
            }
            return logout.report(output, remaining: (try? assembly.accounts.storedAccounts()) ?? [])
        }
        let account = (try? assembly.accounts.account(at: origin)) ?? SignedInAccount(origin: origin, username: nil)
        let logout = await Logout.run(account, isCurrent: origin == current?.origin, assembly: assembly)
        return logout.report(output, remaining: (try? assembly.accounts.storedAccounts()) ?? [])
    }

    /// `--all`: every account on this device, each as one logout; the
    /// output says for each server whether it ended the session or was not
    /// reached (then only this device forgot it).
    static func logOutEverywhere(_ assembly: ClientAssembly, output: SessionCommandIO) async -> ExitCode {
        let accounts: [StoredAccount]
        do {
            accounts = try assembly.accounts.storedAccounts()
        } catch {
            return output.failure(LocalizedText(describing: error))
        }
        var logouts: [Logout] = []
        for stored in accounts {
            logouts.append(await Logout.run(stored.account, isCurrent: stored.isCurrent, assembly: assembly))
        }
        var leftovers = Logout(account: nil)
        // What belongs to no account goes too (the daemon's settings, what an earlier version kept).
        leftovers.forget(.logoutWhatLimits, as: "instance_values") {
            try assembly.container.state.clearUnscopedValues()
        }
        let errors = logouts.flatMap(\.errors) + leftovers.errors
        if output.json {
            output.io.writeJSON([
                "status": errors.isEmpty ? "logged_out" : "error",
                "accounts": .array(logouts.map(\.jsonObject)),
                "errors": JSONValue(errors.map(\.english)),
            ])
        } else {
            var text: [String] = []
            if logouts.isEmpty { text.append(t(.logoutNoAccounts)) }
            for logout in logouts {
                let origin = TerminalText.neutralised(logout.account?.origin ?? "")
                let user = logout.account?.username.map(TerminalText.neutralised) ?? t(.statusUnknownUser)
                text.append(t(.logoutAccountHeading, ["server": origin, "user": user]))
                text += logout.personLines.map { "  " + $0 }
            }
            if errors.isEmpty, !logouts.isEmpty {
                text.append(logouts.count == 1 ? t(.loggedOutOfOne) : t(.loggedOutOfAll, ["count": logouts.count]))
            }
            output.io.out.write(text.map { $0 + "\n" }.joined())
        }
        for error in errors { output.io.err.write("share logout: \(error.localized)\n") }
        return errors.isEmpty ? .success : .failure
    }
}

/// The steps of logging out of one account and what each achieved:
/// `errors` in every language (English in `--json`), `lines` for the person.
struct Logout {
    /// The account, nil when none was recorded.
    let account: SignedInAccount?
    var serverResult = "revoked"
    var deleted: [String] = []
    var errors: [LocalizedText] = []
    var lines: [String] = []

    /// Logs out of one account: push first (while the session still works),
    /// then the server's session and the tokens, then what this device kept
    /// for the account; for the current account also what belongs to no
    /// account (the daemon's settings).
    static func run(_ account: SignedInAccount, isCurrent: Bool, assembly: ClientAssembly) async -> Logout {
        var logout = Logout(account: account)
        let origin = account.origin
        // Push: unregister this device while the session still works (NotifyCommand.swift).
        if let line = await NotifyCommand.unregisterPush(at: origin, assembly: assembly) {
            logout.lines.append(line)
        }
        await logout.endSessions(at: origin, assembly: assembly)
        let state = assembly.container.state
        // The account's values, and those kept for its server before a username was known.
        let scopes = [account.scope, SignedInAccount(origin: origin, username: nil).scope]
        logout.forget(.logoutWhatRecents, as: "recent_targets") {
            for scope in scopes { try state.set(nil, for: SharedStateKey.recentTargets.scoped(to: scope)) }
        }
        logout.forget(.logoutWhatLimits, as: "instance_values") {
            for scope in scopes { try state.clearAccountValues(of: scope) }
            if isCurrent { try state.clearUnscopedValues() }
        }
        logout.forget(.logoutWhatAccount, as: "account") { try assembly.accounts.forget(at: origin) }
        return logout
    }

    /// Tells the server (best effort), then deletes both families' tokens.
    mutating func endSessions(at origin: String, assembly: ClientAssembly) async {
        let connection: ServerConnection
        do {
            connection = try assembly.connection(to: origin)
        } catch {
            serverResult = "failed"
            errors.append(localized(.logoutCannotSetUp, ["origin": origin, "error": "\(error)"]))
            return
        }
        do {
            switch try await connection.issuer.logout(parent: connection.provider(.parent)) {
            case .revoked:
                lines.append(t(.logoutRevoked, ["origin": origin]))
            case .alreadyEnded(.noTokens):
                serverResult = "already_ended"
                lines.append(t(.logoutNoSession, ["origin": origin]))
            case .alreadyEnded(let reason):
                serverResult = "already_ended"
                lines.append(t(.logoutAlreadyEnded, ["origin": origin, "reason": "\(reason)"]))
            }
        } catch .retryable(let why) {
            serverResult = "unreachable"
            lines.append(t(.logoutUnreachable, ["origin": origin, "reason": "\(why)"]))
        } catch {
            serverResult = "failed"
            lines.append(t(.logoutNotEnded, ["origin": origin, "reason": "\(error)"]))
        }
        for (role, name) in [(SessionRole.parent, "parent_tokens"), (.child, "child_tokens")] {
            do {
                try await connection.issuer.deleteStoredSession(role)
                deleted.append(name)
            } catch {
                errors.append(localized(.logoutCannotDeleteTokens, ["role": role.rawValue, "error": "\(error)"]))
            }
        }
        if errors.isEmpty { lines.append(t(.logoutDeletedTokens)) }
    }

    /// Runs one deletion of the shared state and records how it went.
    mutating func forget(_ what: CLIText, as name: String, _ body: () throws -> Void) {
        do {
            try body()
            if !deleted.contains(name) { deleted.append(name) }
        } catch {
            let reason = "\(error)"
            errors.append(
                LocalizedText { language in
                    CLIText.table.text(
                        .logoutCannotDelete, ["what": CLIText.table.text(what, in: language), "error": reason],
                        in: language)
                })
        }
    }

    /// The lines for a person: what happened, and what was deleted. A reason
    /// may quote the server or the transport: neutralised before the terminal.
    var personLines: [String] {
        var text = lines.map(TerminalText.neutralised)
        if ["recent_targets", "instance_values", "account"].allSatisfy(deleted.contains) {
            text.append(t(.logoutDeletedRest))
        }
        return text
    }

    /// The account's object in `--json`.
    var jsonObject: JSONValue {
        [
            "server": JSONValue(account?.origin), "user": JSONValue(account?.username),
            "server_result": JSONValue(serverResult), "deleted": JSONValue(deleted),
            "errors": JSONValue(errors.map(\.english)),
        ]
    }

    /// Prints the outcome of a logout of one account, and which accounts
    /// stay on this device; exit 1 only when something stayed here that
    /// was to go.
    /// - Parameter remaining: the accounts on this device afterwards.
    func report(_ output: SessionCommandIO, remaining: [StoredAccount]) -> ExitCode {
        if output.json {
            output.io.writeJSON([
                "status": errors.isEmpty ? "logged_out" : "error", "server": JSONValue(account?.origin),
                "server_result": JSONValue(serverResult), "deleted": JSONValue(deleted),
                "errors": JSONValue(errors.map(\.english)),
                "remaining_accounts": .array(
                    remaining.map {
                        ["server": JSONValue($0.account.origin), "user": JSONValue($0.account.username)]
                    }),
            ])
        } else {
            var text = personLines
            if errors.isEmpty { text.append(t(.loggedOut)) }
            if !remaining.isEmpty {
                let names = remaining.map { stored in
                    let origin = TerminalText.neutralised(stored.account.origin)
                    return stored.account.username.map {
                        t(.accountAt, ["user": TerminalText.neutralised($0), "server": origin])
                    } ?? origin
                }
                let current = remaining.first(where: \.isCurrent)
                text.append(
                    current == nil
                        ? t(.logoutOthersStay, ["accounts": names.joined(separator: ", ")])
                        : t(
                            .logoutCurrentStays,
                            ["server": TerminalText.neutralised(current?.account.origin ?? "")]))
            }
            output.io.out.write(text.map { $0 + "\n" }.joined())
        }
        for error in errors { output.io.err.write("share logout: \(error.localized)\n") }
        return errors.isEmpty ? .success : .failure
    }
}
