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
        summary: t(.programSummary),
        commands: [
            Subcommand(
                name: "send", summary: t(.summarySend), help: SendCommand.help,
                lastOptions: [Options.desktop.declaration.name]
            ) {
                arguments, io in
                await SendCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(
                name: "inbox", summary: t(.summaryInbox),
                help: InboxCommand.help, subcommands: InboxCommand.subcommands
            ) {
                arguments, io in
                await InboxCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(
                name: "login", summary: t(.summaryLogin),
                help: LoginCommand.help
            ) { arguments, io in
                await LoginCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(name: "logout", summary: t(.summaryLogout), help: LogoutCommand.help) {
                arguments, io in
                await LogoutCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(
                name: "accounts", summary: t(.summaryAccounts), help: AccountsCommand.help,
                subcommands: AccountsCommand.subcommands
            ) { arguments, io in
                await AccountsCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(name: "status", summary: t(.summaryStatus), help: StatusCommand.help) {
                arguments, io in
                await StatusCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(name: "targets", summary: t(.summaryTargets), help: TargetsCommand.help) {
                arguments, io in
                await TargetsCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(name: "desktop-entry", summary: t(.summaryDesktopEntry), help: DesktopEntry.help) {
                arguments, io in
                DesktopEntry.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(name: "notify", summary: t(.summaryNotify), help: NotifyCommand.help) {
                arguments, io in
                await NotifyCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(
                name: "debug", summary: t(.summaryDebug), help: DebugCommand.help,
                subcommands: DebugCommand.subcommands
            ) { arguments, io in
                // A developer's aid, in English only (its help too).
                await Language.withLanguage(.english) {
                    await DebugCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
                }
            },
            Subcommand(
                name: "manpage", summary: t(.summaryManpage),
                help: t(.manpageHelp)
            ) { arguments, io in
                guard arguments.isEmpty else {
                    io.err.write(
                        "share manpage: " + t(.runHelp, ["message": t(.takesNoArguments), "command": "share manpage"])
                            + "\n")
                    return .usage
                }
                io.out.write(ManualPage(table: ShareCLI.table).roff)
                return .success
            },
            Subcommand(name: "completions", summary: t(.summaryCompletions), help: completionsHelp) {
                arguments, io in
                guard arguments.count == 1, ShellCompletions.shells.contains(arguments[0]) else {
                    let message = t(
                        .nameOneShell,
                        ["suggestion": Suggestion.didYouMean(arguments.first ?? "", in: ShellCompletions.shells)])
                    io.err.write(
                        "share completions: " + t(.runHelp, ["message": message, "command": "share completions"]) + "\n"
                    )
                    return .usage
                }
                io.out.write(
                    ShellCompletions.script(for: arguments[0], program: "share", commands: ShareCommands.all) ?? "")
                return .success
            },
            Subcommand(name: "reference", summary: t(.summaryReference), help: referenceHelp) {
                arguments, io in
                guard arguments.isEmpty else {
                    io.err.write(
                        "share reference: "
                            + t(.runHelp, ["message": t(.takesNoArguments), "command": "share reference"]) + "\n")
                    return .usage
                }
                io.out.write(CommandReference.markdown(program: "share", commands: ShareCommands.all))
                return .success
            },
        ],
        versionDetails: ClientAssembly.transportVersion
    )

    /// The text of `share completions --help`.
    static var completionsHelp: String { t(.completionsHelp) }

    /// The text of `share reference --help`.
    static var referenceHelp: String { t(.referenceHelp) }

    /// Runs `share` with `arguments` (without the program name).
    /// - Returns: the process exit code.
    public static func main(_ arguments: [String], io: ProgramIO = ProgramIO()) async -> Int32 {
        // The completions' hidden command, before the table: it is no
        // command a person types, and a Tab should not wait for the table.
        if arguments.first == ShellCompletions.candidatesCommand {
            return CompleteCommand.run(
                Array(arguments.dropFirst()), io: io, environment: ProcessInfo.processInfo.environment
            ).rawValue
        }
        return await table.run(arguments, io: io).rawValue
    }
}
