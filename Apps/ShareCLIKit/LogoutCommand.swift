import AppSupport
import ClientAssembly
import Foundation
import SessionsInterface
import ShareCore
import SharedStateInterface

/// `share logout`: ends the session on the server when it can be reached
/// (best effort), then forgets everything of the account on this device:
/// both families' tokens, the recent targets, the instance values, the
/// username and the server.
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
        var origin: String?
        if let server = parsed.value(Options.server) {
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
        let state = assembly.container.state
        origin = origin ?? (try? assembly.signedInAccount())?.origin

        var logout = Logout()
        if let origin {
            // Push: unregister this device while the session still works (NotifyCommand.swift).
            if let line = await NotifyCommand.unregisterPush(at: origin, assembly: assembly) {
                logout.lines.append(line)
            }
            await logout.endSessions(at: origin, assembly: assembly)
        } else {
            logout.serverResult = "not_logged_in"
            logout.lines.append(t(.logoutNoServer))
        }
        logout.forget(.logoutWhatRecents, as: "recent_targets") { try state.set(nil, for: .recentTargets) }
        logout.forget(.logoutWhatLimits, as: "instance_values") { try InstanceValues.clear(in: state) }
        logout.forget(.logoutWhatAccount, as: "account") { try assembly.forgetAccount() }
        return logout.report(output, origin: origin)
    }
}

/// The steps of one `share logout` and what each achieved: `errors` in
/// every language (English in `--json`), `lines` for the person.
struct Logout {
    var serverResult = "revoked"
    var deleted: [String] = []
    var errors: [LocalizedText] = []
    var lines: [String] = []

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
            deleted.append(name)
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

    /// Prints the outcome; exit 1 only when something stayed on this device.
    func report(_ output: SessionCommandIO, origin: String?) -> ExitCode {
        if output.json {
            output.io.writeJSON([
                "status": errors.isEmpty ? "logged_out" : "error", "server": JSONValue(origin),
                "server_result": JSONValue(serverResult), "deleted": JSONValue(deleted),
                "errors": JSONValue(errors.map(\.english)),
            ])
        } else {
            var text = lines
            if ["recent_targets", "instance_values", "account"].allSatisfy(deleted.contains) {
                text.append(t(.logoutDeletedRest))
            }
            if errors.isEmpty { text.append(t(.loggedOut)) }
            output.io.out.write(text.map { $0 + "\n" }.joined())
        }
        for error in errors { output.io.err.write("share logout: \(error.localized)\n") }
        return errors.isEmpty ? .success : .failure
    }
}
