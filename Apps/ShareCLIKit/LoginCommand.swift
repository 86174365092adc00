import AppSupport
import ClientAssembly
import KeychainInterface
import MessagesInterface
import SessionsInterface
import ShareCore
import SharedStateInterface

/// `share login`: signs a person in, which makes the parent session the
/// daemon holds (bound to the device key), makes the child session
/// `share send` uses, and tells a running daemon, which keeps that child alive.
enum LoginCommand {
    static let help = """
        Usage: share login --server URL --user NAME [--password-stdin] [--allow-insecure-http] [--json]

        Signs in to a server. The new session (the parent session, bound to this
        device's key) is kept in the keychain for share-daemon, and the child session
        share send uses is made at once, so share send works right after login
        without a daemon; share-daemon keeps it alive afterwards. The server becomes
        the default of every share command.

        Options:
          --server URL      the server, https://host[:port]; http:// only for this
                            machine (localhost, 127.x.x.x, [::1]).
          --user NAME       the username.
          --password-stdin  read the password from the first line of standard input
                            instead of asking on the terminal (no echo there).
          --allow-insecure-http
                            allow http:// to another machine: the password and every
                            token then cross the network in clear. For test networks.
          --json            print the result as one JSON object on stdout.

        Output: `logged in as NAME at URL`; with --json an object
        {"status": "logged_in", "server", "user", "session_id"}. The password and the
        tokens are never printed.

        Exit codes:
          0   logged in
          1   failure: wrong username or password, the server cannot be reached or
              refused, no terminal to ask on (use --password-stdin), a keychain error
          2   invalid command line (a --server that is not http(s)://host[:port], or
              http:// to another machine without --allow-insecure-http)

        """

    static func run(_ arguments: [String], io: ProgramIO, environment: [String: String]) async -> ExitCode {
        let parsed: ParsedArguments
        switch SessionCommandIO.parse(
            arguments, command: "login", help: help, declaration: ShareCommands.login, io: io)
        {
        case .run(let arguments): parsed = arguments
        case .done(let exit): return exit
        }
        let output = SessionCommandIO(command: "login", io: io, json: parsed.has(Options.json))
        guard let server = parsed.value(Options.loginServer) else { return output.usage("--server URL is required") }
        guard let origin = ServerOrigin.parse(server) else {
            return output.usage("--server must be http(s)://host[:port], not \"\(server)\"")
        }
        if ServerOrigin.isInsecure(origin), !parsed.has(Options.allowInsecureHTTP) {
            return output.usage(
                "\(origin) is plain http to another machine: the password would cross the network in clear. "
                    + "Use https://, or --allow-insecure-http on a network you trust")
        }
        guard let user = parsed.value(Options.user), !user.isEmpty, !user.contains(where: \.isNewline) else {
            return output.usage("--user NAME is required")
        }

        let password: String
        do {
            password =
                parsed.has(Options.passwordStdin)
                ? try SessionPassword.fromStandardInput()
                : try SessionPassword.fromTerminal(prompt: "Password for \(user) at \(origin): ", err: io.err)
        } catch {
            return output.failure(error.description)
        }
        guard !password.isEmpty else { return output.failure("the password is empty") }

        let assembly: ClientAssembly
        let connection: ServerConnection
        do {
            assembly = try ClientAssembly(environment: environment)
            connection = try assembly.connection(to: origin)
        } catch {
            return output.failure("\(error)")
        }
        let session: SessionTokens
        do {
            session = try await connection.issuer.login(username: user, password: SecretValue(utf8: password))
        } catch {
            return output.failure(Self.message(for: error, user: user, origin: origin))
        }

        let state = assembly.container.state
        let previous = try? assembly.signedInAccount()
        do {
            // The stored child belongs to the previous parent (perhaps another
            // person's): the daemon makes a new one for this session.
            try await connection.issuer.deleteStoredSession(.child)
            if previous?.origin != origin || previous?.username != user {
                // Recent targets and limits describe the previous account.
                try state.set(nil, for: .recentTargets)
                try InstanceValues.clear(in: state)
            }
            try assembly.recordAccount(SignedInAccount(origin: origin, username: user))
        } catch {
            return output.failure("logged in, but cannot record it for the other programs: \(error)")
        }
        // The child session share send uses, made now (createExtensionSession,
        // as the app does right after login): the first share after a login
        // needs no daemon. A failure is not the login's: share-daemon makes
        // the child at its next pass.
        var childWarning: String?
        do {
            _ = try await connection.issuer.ensureChildSession(parent: connection.provider(.parent))
        } catch {
            childWarning = "\(error)"
        }
        // The server's limits, kept for share send: it checks a share against
        // them before it asks the server anything (best effort).
        if childWarning == nil, let limits = try? await connection.messages(.child).instanceLimits() {
            try? InstanceValues.write(limits, to: state)
        }
        DaemonControl.wake(assembly)
        if let childWarning {
            io.err.write(
                "share login: no session for share send yet (\(TerminalText.neutralised(childWarning))); "
                    + "share-daemon makes it when it runs\n")
        }

        if output.json {
            output.io.writeJSON([
                "status": "logged_in", "server": JSONValue(origin), "user": JSONValue(user),
                "session_id": JSONValue(session.sessionID),
            ])
        } else {
            io.out.write("logged in as \(user) at \(origin)\n")
        }
        return .success
    }

    /// What went wrong, for a person; never the password.
    static func message(for error: SessionError, user: String, origin: String) -> String {
        if error.isWrongCredentials { return "wrong username or password for \(user) at \(origin)" }
        switch error {
        case .retryable(let why): return "cannot reach \(origin) now (\(why)); try again later"
        case .failed(let why): return "\(origin) refused the login: \(why)"
        case .cancelled, .unavailable: return "login to \(origin) did not complete: \(error)"
        }
    }
}
