import Foundation
import ShareCore

/// One subcommand of a program: its name, a one-line summary for `--help`,
/// and what runs it.
public struct Subcommand: Sendable {
    /// The word after the program name.
    public let name: String
    /// A line for the program's help.
    public let summary: String
    /// The command's own help: what `COMMAND --help`, `COMMAND -h`,
    /// `COMMAND SUBCOMMAND --help` and `help COMMAND [SUBCOMMAND]` print.
    public let help: String
    /// The words of the command's own subcommands (`list`, `show` for
    /// `inbox`); empty for a command without them.
    public let subcommands: [String]
    /// Runs the command with the remaining arguments.
    public let run: @Sendable ([String], ProgramIO) async -> ExitCode

    /// Makes a subcommand.
    /// - Parameters:
    ///   - name: the word after the program name.
    ///   - summary: a line for the program's help.
    ///   - help: the command's own help text; the summary when nil.
    ///   - subcommands: the words of the command's own subcommands.
    ///   - run: runs the command with the remaining arguments.
    public init(
        name: String, summary: String, help: String? = nil, subcommands: [String] = [],
        run: @escaping @Sendable ([String], ProgramIO) async -> ExitCode
    ) {
        self.name = name
        self.summary = summary
        self.help = help ?? "\(summary)\n"
        self.subcommands = subcommands
        self.run = run
    }

    /// Whether a command line asks for help: `--help` or `-h` before `--`.
    /// - Parameter arguments: the arguments after the command's name.
    public static func asksForHelp(_ arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains { $0 == "--help" || $0 == "-h" }
    }

    /// A command that this build does not provide yet: it says so, names
    /// the version, and exits with ``ExitCode/unavailable``.
    public static func notYetAvailable(_ name: String, summary: String, program: String) -> Subcommand {
        Subcommand(name: name, summary: summary + " [not yet available]") { _, io in
            io.err.write(
                "\(program) \(name): not available in this build of ShareKit \(ShareKitVersion.current)\n")
            return .unavailable
        }
    }
}

/// A program made of subcommands, with `--help` and `--version` handled the
/// same way in every ShareKit program.
public struct CommandTable: Sendable {
    /// The program's name as typed (`share`).
    public let program: String
    /// What the program is for, one line.
    public let summary: String
    /// The subcommands in help order.
    public let commands: [Subcommand]
    /// Extra words for `--version`, such as the versions of the C libraries linked in.
    public let versionDetails: String?

    /// Makes a table.
    public init(program: String, summary: String, commands: [Subcommand], versionDetails: String? = nil) {
        self.program = program
        self.summary = summary
        self.commands = commands
        self.versionDetails = versionDetails
    }

    /// The text of `--help`.
    public var help: String {
        let width = (commands.map(\.name.count).max() ?? 0) + 2
        var text =
            "\(program): \(summary)\n\nUsage: \(program) <command> [options]\n       \(program) --help | --version\n\nCommands:\n"
        for c in commands {
            text += "  " + c.name.padding(toLength: width, withPad: " ", startingAt: 0) + c.summary + "\n"
        }
        text +=
            "\nRun '\(program) <command> --help' or '\(program) help <command>' for a command's options.\n\n"
            + ExitCode.helpSection
        return text
    }

    /// Dispatches `arguments` (without the program name). Every command
    /// answers `--help` and `-h` (also after a subcommand's word) with its
    /// own help and exit 0, and `help COMMAND [SUBCOMMAND]` prints the same;
    /// a mistyped command is answered with the nearest one.
    /// - Returns: the exit code to end the process with.
    public func run(_ arguments: [String], io: ProgramIO) async -> ExitCode {
        guard let first = arguments.first else {
            io.err.write(help)
            return .usage
        }
        switch first {
        case "--help", "-h":
            io.out.write(help)
            return .success
        case "help":
            return helpCommand(Array(arguments.dropFirst()), io: io)
        case "--version":
            io.out.write("\(program) \(ShareKitVersion.current)" + (versionDetails.map { " (\($0))" } ?? "") + "\n")
            return .success
        default:
            guard let command = command(named: first, io: io) else { return .usage }
            let rest = Array(arguments.dropFirst())
            if Subcommand.asksForHelp(rest) {
                io.out.write(command.help)
                return .success
            }
            return await command.run(rest, io)
        }
    }

    /// `help [COMMAND [SUBCOMMAND]]`: the program's help, or a command's.
    private func helpCommand(_ words: [String], io: ProgramIO) -> ExitCode {
        guard let name = words.first else {
            io.out.write(help)
            return .success
        }
        guard let command = command(named: name, io: io) else { return .usage }
        if words.count > 2 {
            io.err.write("\(program) help: too many words; run '\(program) help COMMAND [SUBCOMMAND]'\n")
            return .usage
        }
        if words.count == 2, !command.subcommands.contains(words[1]) {
            let sub = words[1]
            io.err.write(
                "\(program) help: '\(name)' has no subcommand '\(sub)'"
                    + Suggestion.didYouMean(sub, in: command.subcommands) + "; run '\(program) help \(name)'\n")
            return .usage
        }
        io.out.write(command.help)
        return .success
    }

    /// The command called `name`, or nil after saying it is unknown (with
    /// the nearest command, if one is near).
    private func command(named name: String, io: ProgramIO) -> Subcommand? {
        if let command = commands.first(where: { $0.name == name }) { return command }
        io.err.write(
            "\(program): unknown command '\(name)'"
                + Suggestion.didYouMean(
                    name,
                    in: commands.map(\.name)
                        + ["help"]) + "; run '\(program) --help' for the list\n")
        return nil
    }
}
