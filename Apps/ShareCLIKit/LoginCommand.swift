import ShareKitAppSupport
import ShareKitClientAssembly
import ShareKitCore
import ShareKitDaemonControlInterface
import ShareKitKeychainInterface
import ShareKitMessagesInterface
import ShareKitSessionsInterface
import ShareKitSharedStateInterface

/// `share login`: signs a person in, which makes the parent session the
/// daemon holds (bound to the device key), makes the child session
/// `share send` uses, makes the account the current one, and tells a running
/// daemon, which then serves it and keeps that child alive. Accounts at other
/// servers stay (`share accounts`); another person's account at the same
/// server is replaced.
enum LoginCommand {
    static var help: String { t(.loginHelp) }

    static func run(_ arguments: [String], io: ProgramIO, environment: [String: String]) async -> ExitCode {
        let parsed: ParsedArguments
        switch SessionCommandIO.parse(
            arguments, command: "login", help: help, declaration: ShareCommands.login, io: io)
        {
        case .run(let arguments): parsed = arguments
        case .done(let exit): return exit
        }
        let output = SessionCommandIO(command: "login", io: io, json: parsed.has(Options.json))
        guard let server = parsed.value(Options.loginServer) else { return output.usage(localized(.serverRequired)) }
        guard let origin = ServerOrigin.parse(server) else {
            return output.usage(localized(.serverForm, ["server": server]))
        }
        if ServerOrigin.isInsecure(origin), !parsed.has(Options.allowInsecureHTTP) {
            return output.usage(localized(.insecureServer, ["origin": origin]))
        }
        guard let user = parsed.value(Options.user), !user.isEmpty, !user.contains(where: \.isNewline) else {
            return output.usage(localized(.userRequired))
        }

        let password: String
        do {
            password =
                parsed.has(Options.passwordStdin)
                ? try SessionPassword.fromStandardInput()
                : try SessionPassword.fromTerminal(
                    prompt: t(.passwordPrompt, ["user": user, "origin": origin]), err: io.err)
        } catch {
            // Ctrl-C at the prompt: its line is ended; `main` ends the process with 130.
            if error.exitCode == .cancelled { return .cancelled }
            return output.failure(LocalizedText(describing: error))
        }
        guard !password.isEmpty else { return output.failure(localized(.passwordEmpty)) }

        let assembly: ClientAssembly
        let connection: ServerConnection
        do {
            assembly = try ClientAssembly(environment: environment)
            // The backend follows the server: a Matrix homeserver gets the Matrix one.
            connection = try assembly.connection(to: origin, kind: try await assembly.serverKind(at: origin))
        } catch {
            return output.failure(LocalizedText(describing: error))
        }
        let session: SessionTokens
        do {
            session = try await connection.issuer.login(username: user, password: SecretValue(utf8: password))
        } catch {
            return output.failure(Self.message(for: error, user: user, origin: origin))
        }

        let state = assembly.container.state
        let account = SignedInAccount(origin: origin, username: user, serverKind: connection.kind)
        let previous = try? assembly.accounts.account(at: origin)
        do {
            // The stored child belongs to the previous parent (perhaps another
            // person's): the daemon makes a new one for this session.
            try await connection.issuer.deleteStoredSession(.child)
            if let previous, previous.username != user {
                // Another person's account at this server ends here: its recent
                // targets and limits go with it. Accounts at other servers stay.
                try state.clearAccountValues(of: previous.scope)
            }
            try assembly.accounts.record(account)
        } catch {
            return output.failure(localized(.loggedInCannotRecord, ["error": "\(error)"]))
        }
        // The child session share send uses, made now (createExtensionSession,
        // as the app does right after login): the first share after a login
        // needs no daemon. A failure is not the login's: share-daemon makes
        // the child at its next pass.
        var childWarning: String?
        do {
            _ = try await connection.issuer.ensureChildSession(parent: connection.provider(.parent))
        } catch {
            childWarning = error.summary
        }
        // The server's limits, kept for share send: it checks a share against
        // them before it asks the server anything (best effort).
        if childWarning == nil, let limits = try? await connection.messages(.child).instanceLimits() {
            try? state.storeInstanceLimits(limits, of: account.scope)
        }
        assembly.daemonControl().wake()
        if let childWarning {
            io.err.write("share login: " + t(.noChildYet, ["reason": TerminalText.neutralised(childWarning)]) + "\n")
        }

        if output.json {
            output.io.writeJSON([
                "status": "logged_in", "server": JSONValue(origin), "user": JSONValue(user),
                "session_id": JSONValue(session.sessionID),
            ])
        } else {
            io.out.write(t(.loggedIn, ["user": user, "origin": origin]) + "\n")
        }
        return .success
    }

    /// What went wrong, for a person; never the password.
    static func message(for error: SessionError, user: String, origin: String) -> LocalizedText {
        if error.isWrongCredentials { return localized(.wrongCredentials, ["user": user, "origin": origin]) }
        switch error {
        // The person's words only: the operation and the transport's words are for logs.
        case .retryable: return localized(.cannotReach, ["origin": origin, "reason": error.summary])
        case .failed: return localized(.loginRefused, ["origin": origin, "reason": error.summary])
        case .cancelled, .unavailable: return localized(.loginIncomplete, ["origin": origin, "reason": error.summary])
        }
    }
}
