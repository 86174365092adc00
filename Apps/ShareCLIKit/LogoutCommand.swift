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
    static let help = """
        Usage: share logout [--server URL] [--json]

        Logs out: asks the server to end the session (which ends share's child session
        too), then deletes from this device the tokens of both sessions, the recent
        targets, the server's limits and the account. When the server cannot be
        reached the tokens are still deleted here; the server then ends the session
        when it expires.

        Shares waiting in the share inbox stay there and are sent after the next login.

        Options:
          --server URL  the server to log out of (default: the one `share login` chose).
          --json        print the result as one JSON object on stdout:
                        {"status": "logged_out", "server", "server_result":
                        "revoked"|"already_ended"|"unreachable"|"failed"|"not_logged_in",
                        "deleted": [...], "errors": [...]}.

        Exit codes:
          0   logged out here (also when the server could not be told)
          1   something could not be deleted on this device (the message says what)
          2   invalid command line

        """

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
                return output.usage("--server must be http(s)://host[:port], not \"\(server)\"")
            }
            origin = given
        }
        let assembly: ClientAssembly
        do {
            assembly = try ClientAssembly(environment: environment)
        } catch {
            return output.failure("\(error)")
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
            logout.lines.append("no server is recorded: not logged in")
        }
        logout.forget("the recent targets", as: "recent_targets") { try state.set(nil, for: .recentTargets) }
        logout.forget("the server's limits", as: "instance_values") { try InstanceValues.clear(in: state) }
        logout.forget("the account", as: "account") { try assembly.forgetAccount() }
        return logout.report(output, origin: origin)
    }
}

/// The steps of one `share logout` and what each achieved.
struct Logout {
    var serverResult = "revoked"
    var deleted: [String] = []
    var errors: [String] = []
    var lines: [String] = []

    /// Tells the server (best effort), then deletes both families' tokens.
    mutating func endSessions(at origin: String, assembly: ClientAssembly) async {
        let connection: ServerConnection
        do {
            connection = try assembly.connection(to: origin)
        } catch {
            serverResult = "failed"
            errors.append("cannot set up the client for \(origin): \(error)")
            return
        }
        do {
            switch try await connection.issuer.logout(parent: connection.provider(.parent)) {
            case .revoked:
                lines.append("the server at \(origin) ended the session and its child sessions")
            case .alreadyEnded(.noTokens):
                serverResult = "already_ended"
                lines.append("no session was stored for \(origin)")
            case .alreadyEnded(let reason):
                serverResult = "already_ended"
                lines.append("the session at \(origin) had already ended (\(reason))")
            }
        } catch .retryable(let why) {
            serverResult = "unreachable"
            lines.append(
                "could not reach the server at \(origin) (\(why)): it was not told; "
                    + "the session ends there when it expires")
        } catch {
            serverResult = "failed"
            lines.append("the server at \(origin) did not end the session (\(error)); the tokens are deleted anyway")
        }
        for (role, name) in [(SessionRole.parent, "parent_tokens"), (.child, "child_tokens")] {
            do {
                try await connection.issuer.deleteStoredSession(role)
                deleted.append(name)
            } catch {
                errors.append("cannot delete the \(role) session's tokens: \(error)")
            }
        }
        if errors.isEmpty { lines.append("deleted the tokens of both sessions from the keychain") }
    }

    /// Runs one deletion of the shared state and records how it went.
    mutating func forget(_ what: String, as name: String, _ body: () throws -> Void) {
        do {
            try body()
            deleted.append(name)
        } catch {
            errors.append("cannot delete \(what): \(error)")
        }
    }

    /// Prints the outcome; exit 1 only when something stayed on this device.
    func report(_ output: SessionCommandIO, origin: String?) -> ExitCode {
        if output.json {
            output.io.writeJSON([
                "status": errors.isEmpty ? "logged_out" : "error", "server": JSONValue(origin),
                "server_result": JSONValue(serverResult), "deleted": JSONValue(deleted), "errors": JSONValue(errors),
            ])
        } else {
            var text = lines
            if ["recent_targets", "instance_values", "account"].allSatisfy(deleted.contains) {
                text.append("deleted the recent targets, the server's limits and the account")
            }
            if errors.isEmpty { text.append("logged out") }
            output.io.out.write(text.map { $0 + "\n" }.joined())
        }
        for error in errors { output.io.err.write("share logout: \(error)\n") }
        return errors.isEmpty ? .success : .failure
    }
}
