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
            Subcommand(name: "send", summary: ShareCommands.send.summary, help: SendCommand.help) {
                arguments, io in
                await SendCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(
                name: "inbox", summary: ShareCommands.inbox.summary,
                help: InboxCommand.help, subcommands: InboxCommand.subcommands
            ) {
                arguments, io in
                await InboxCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(
                name: "login", summary: ShareCommands.login.summary,
                help: LoginCommand.help
            ) { arguments, io in
                await LoginCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(name: "logout", summary: ShareCommands.logout.summary, help: LogoutCommand.help) {
                arguments, io in
                await LogoutCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(name: "status", summary: ShareCommands.status.summary, help: StatusCommand.help) {
                arguments, io in
                await StatusCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(name: "targets", summary: ShareCommands.targets.summary, help: TargetsCommand.help) {
                arguments, io in
                await TargetsCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(name: "desktop-entry", summary: ShareCommands.desktopEntry.summary, help: DesktopEntry.help) {
                arguments, io in
                DesktopEntry.run(arguments, io: io)
            },
            Subcommand(name: "notify", summary: ShareCommands.notify.summary, help: NotifyCommand.help) {
                arguments, io in
                await NotifyCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(
                name: "debug", summary: ShareCommands.debug.summary, help: DebugCommand.help,
                subcommands: DebugCommand.subcommands
            ) { arguments, io in
                await DebugCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(
                name: "manpage", summary: ShareCommands.manpage.summary,
                help: "Usage: share manpage\n\nPrints the manual page of share (roff), made from the same help "
                    + "texts as --help;\ntools/cli-docs writes it to contrib/man/share.1.\n"
            ) { arguments, io in
                guard arguments.isEmpty else {
                    io.err.write("share manpage: takes no arguments; run 'share manpage --help'\n")
                    return .usage
                }
                io.out.write(ManualPage(table: ShareCLI.table).roff)
                return .success
            },
            Subcommand(name: "completions", summary: ShareCommands.completions.summary, help: completionsHelp) {
                arguments, io in
                guard arguments.count == 1, ShellCompletions.shells.contains(arguments[0]) else {
                    io.err.write(
                        "share completions: name one shell: bash, zsh or fish"
                            + Suggestion.didYouMean(arguments.first ?? "", in: ShellCompletions.shells)
                            + "; run 'share completions --help'\n")
                    return .usage
                }
                io.out.write(
                    ShellCompletions.script(for: arguments[0], program: "share", commands: ShareCommands.all) ?? "")
                return .success
            },
            Subcommand(name: "reference", summary: ShareCommands.reference.summary, help: referenceHelp) {
                arguments, io in
                guard arguments.isEmpty else {
                    io.err.write("share reference: takes no arguments; run 'share reference --help'\n")
                    return .usage
                }
                io.out.write(CommandReference.markdown(program: "share", commands: ShareCommands.all))
                return .success
            },
        ],
        versionDetails: ClientAssembly.transportVersion
    )

    /// The text of `share completions --help`.
    static let completionsHelp = """
        Usage: share completions bash|zsh|fish

        Prints a completion script for the shell, made from the same option
        declarations as share's parser:

          source <(share completions bash)          # bash, or save it in
                                                    # ~/.local/share/bash-completion/completions/share
          share completions zsh > ~/.zfunc/_share    # zsh, with ~/.zfunc on $fpath
          share completions fish > ~/.config/fish/completions/share.fish

        Exit codes: 0 printed, 2 no such shell.

        """

    /// The text of `share reference --help`.
    static let referenceHelp = """
        Usage: share reference

        Prints the CLI reference in Markdown (every command, its usage and options),
        made from the same declarations as the parser; README.md's "CLI reference" is
        this text (tools/cli-docs writes it there).

        Exit codes: 0 printed, 2 invalid command line.

        """

    /// Runs `share` with `arguments` (without the program name).
    /// - Returns: the process exit code.
    public static func main(_ arguments: [String], io: ProgramIO = ProgramIO()) async -> Int32 {
        await table.run(arguments, io: io).rawValue
    }
}
