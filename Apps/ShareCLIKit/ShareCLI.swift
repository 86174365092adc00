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
    public static let table: CommandTable = CommandTable(
        program: "share",
        summary: "share text, links and files into a chat thread or channel",
        commands: [
            Subcommand(name: "send", summary: "share files, links or text to a target", help: SendCommand.help) {
                arguments, io in
                await SendCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(
                name: "inbox", summary: "list, show, retry or drop shares waiting in the inbox or the daemon's outbox",
                help: InboxCommand.help, subcommands: InboxCommand.subcommands
            ) {
                arguments, io in
                await InboxCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(
                name: "login", summary: "log in to a server (creates the parent and child sessions)",
                help: LoginCommand.help
            ) { arguments, io in
                await LoginCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(name: "logout", summary: "log out and delete every token", help: LogoutCommand.help) {
                arguments, io in
                await LogoutCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(name: "status", summary: "show session, daemon and outbox state", help: StatusCommand.help) {
                arguments, io in
                await StatusCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(name: "targets", summary: "list recent targets or search for one", help: TargetsCommand.help) {
                arguments, io in
                await TargetsCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(name: "desktop-entry", summary: "print the freedesktop desktop entry", help: DesktopEntry.help) {
                arguments, io in
                DesktopEntry.run(arguments, io: io)
            },
            Subcommand(name: "notify", summary: "render a push payload as a notification", help: NotifyCommand.help) {
                arguments, io in
                await NotifyCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(
                name: "debug", summary: "debugging aids: dpop-proof, jwk, get", help: DebugCommand.help,
                subcommands: DebugCommand.subcommands
            ) { arguments, io in
                await DebugCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(
                name: "manpage", summary: "print this program's manual page (roff; contrib/man/share.1)",
                help: "Usage: share manpage\n\nPrints the manual page of share (roff), made from the same help "
                    + "texts as --help;\ntools/manpages writes it to contrib/man/share.1.\n"
            ) { arguments, io in
                guard arguments.isEmpty else {
                    io.err.write("share manpage: takes no arguments; run 'share manpage --help'\n")
                    return .usage
                }
                io.out.write(ManualPage(table: ShareCLI.table).roff)
                return .success
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
