public import AppSupport
import ClientAssembly
import Foundation
import ShareCore

/// The `share` program: the share extension of ShareKit. It sends by itself
/// with its own child session and falls back to the share inbox.
///
/// It names no concrete module: `ClientAssembly` (the client side's
/// composition root) hands it every service as an interface.
public enum ShareCLI {
    /// The command table of `share`.
    public static let table = CommandTable(
        program: "share",
        summary: "share text, links and files into a chat thread or channel",
        commands: [
            Subcommand(name: "send", summary: "share files, links or text to a target") { arguments, io in
                await SendCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(name: "inbox", summary: "list, show, retry or drop shares waiting in the inbox") {
                arguments, io in
                await InboxCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(name: "login", summary: "log in to a server (creates the parent session)") { arguments, io in
                await LoginCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(name: "logout", summary: "log out and delete every token") { arguments, io in
                await LogoutCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(name: "status", summary: "show session, daemon and outbox state") { arguments, io in
                await StatusCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(name: "targets", summary: "list recent targets or search for one") { arguments, io in
                await TargetsCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(name: "desktop-entry", summary: "print the freedesktop desktop entry") { arguments, io in
                DesktopEntry.run(arguments, io: io)
            },
            Subcommand(name: "notify", summary: "render a push payload as a notification") { arguments, io in
                await NotifyCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(name: "debug", summary: "debugging aids: dpop-proof, jwk, get") { arguments, io in
                await DebugCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
        ],
        versionDetails: ClientAssembly.transportVersion
    )

    /// Runs `share` with `arguments` (without the program name).
    /// - Returns: the process exit code.
    public static func main(_ arguments: [String], io: ProgramIO = ProgramIO()) async -> Int32 {
        await table.run(arguments, io: io).rawValue
    }
}
