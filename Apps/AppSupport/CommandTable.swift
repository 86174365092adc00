import Foundation
public import ShareKitCore

/// One subcommand of a program: its name, a one-line summary for `--help`,
/// and what runs it. The summary and the help are made when shown, so they
/// are in the language of the person reading them (``Language/current``).
public struct Subcommand: Sendable {
    /// The word after the program name.
    public let name: String
    private let makeSummary: @Sendable () -> String
    private let makeHelp: @Sendable () -> String?
    /// The words of the command's own subcommands (`list`, `show` for
    /// `inbox`); empty for a command without them.
    public let subcommands: [String]
    /// Runs the command with the remaining arguments.
    public let run: @Sendable ([String], ProgramIO) async -> ExitCode
    /// Flags after which every argument is an operand, as after `--`
    /// (`share send --desktop` takes what the desktop hands over, and a
    /// file may be called `--help`).
    public let lastOptions: Set<String>

    /// A line for the program's help.
    public var summary: String { makeSummary() }

    /// The command's own help: what `COMMAND --help`, `COMMAND -h`,
    /// `COMMAND SUBCOMMAND --help` and `help COMMAND [SUBCOMMAND]` print.
    public var help: String { makeHelp() ?? "\(summary)\n" }

    /// Makes a subcommand.
    /// - Parameters:
    ///   - name: the word after the program name.
    ///   - summary: a line for the program's help, made when shown.
    ///   - help: the command's own help text, made when shown; the summary when nil.
    ///   - subcommands: the words of the command's own subcommands.
    ///   - lastOptions: flags after which every argument is an operand.
    ///   - run: runs the command with the remaining arguments.
    public init(
        name: String, summary: @autoclosure @escaping @Sendable () -> String,
        help: @autoclosure @escaping @Sendable () -> String? = nil, subcommands: [String] = [],
        lastOptions: Set<String> = [], run: @escaping @Sendable ([String], ProgramIO) async -> ExitCode
    ) {
        self.name = name
        makeSummary = summary
        makeHelp = help
        self.subcommands = subcommands
        self.lastOptions = lastOptions
        self.run = run
    }

    /// Whether a command line asks for help: `--help` or `-h` before `--`.
    /// - Parameter arguments: the arguments after the command's name.
    public static func asksForHelp(_ arguments: [String]) -> Bool {
        asksForHelp(arguments, lastOptions: [])
    }

    /// Whether a command line asks for help: `--help` or `-h` before `--`
    /// and before (or as) one of `lastOptions`.
    /// - Parameters:
    ///   - arguments: the arguments after the command's name.
    ///   - lastOptions: flags after which every argument is an operand.
    public static func asksForHelp(_ arguments: [String], lastOptions: Set<String>) -> Bool {
        arguments.prefix { $0 != "--" && !lastOptions.contains($0) }.contains { $0 == "--help" || $0 == "-h" }
    }

    /// A command that this build does not provide yet: it says so, names
    /// the version, and exits with ``ExitCode/unavailable``.
    public static func notYetAvailable(
        _ name: String, summary: @autoclosure @escaping @Sendable () -> String, program: String
    ) -> Subcommand {
        Subcommand(name: name, summary: AppSupportText.text(.notYetAvailableSummary, ["summary": summary()])) {
            _, io in
            io.err.write(
                AppSupportText.text(
                    .notYetAvailable, ["program": program, "name": name, "version": ShareKitVersion.current])
                    + "\n")
            return .unavailable
        }
    }
}

/// A program made of subcommands, with `--help` and `--version` handled the
/// same way in every ShareKit program.
public struct CommandTable: Sendable {
    /// The program's name as typed (`share`).
    public let program: String
    private let makeSummary: @Sendable () -> String
    /// The subcommands in help order.
    public let commands: [Subcommand]
    /// Extra words for `--version`, such as the versions of the C libraries linked in.
    public let versionDetails: String?
    /// The one language the program speaks, or nil for the language of the
    /// person (``Language/current``). A program whose texts have no German
    /// table (share-daemon, share-server) says `.english`, so that its help
    /// is not half translated.
    public let language: Language?

    /// What the program is for, one line.
    public var summary: String { makeSummary() }

    /// Makes a table.
    /// - Parameters:
    ///   - program: the program's name.
    ///   - summary: what it is for, one line, made when shown.
    ///   - commands: the subcommands in help order.
    ///   - versionDetails: extra words for `--version`.
    ///   - language: the one language the program speaks; nil for the person's.
    public init(
        program: String, summary: @autoclosure @escaping @Sendable () -> String, commands: [Subcommand],
        versionDetails: String? = nil, language: Language? = nil
    ) {
        self.program = program
        makeSummary = summary
        self.commands = commands
        self.versionDetails = versionDetails
        self.language = language
    }

    /// The text of `--help`.
    public var help: String {
        let width = (commands.map(\.name.count).max() ?? 0) + 2
        var text =
            "\(program): \(summary)\n\n" + AppSupportText.text(.helpUsage, ["program": program]) + "\n\n"
            + AppSupportText.text(.helpCommands) + ":\n"
        for c in commands {
            text += "  " + c.name.padding(toLength: width, withPad: " ", startingAt: 0) + c.summary + "\n"
        }
        text += "\n" + AppSupportText.text(.helpMore, ["program": program]) + "\n\n" + ExitCode.helpSection
        return text
    }

    /// Dispatches `arguments` (without the program name). Every command
    /// answers `--help` and `-h` (also after a subcommand's word) with its
    /// own help and exit 0, and `help COMMAND [SUBCOMMAND]` prints the same;
    /// a mistyped command is answered with the nearest one.
    /// - Returns: the exit code to end the process with.
    public func run(_ arguments: [String], io: ProgramIO) async -> ExitCode {
        guard let language else { return await dispatch(arguments, io: io) }
        return await Language.withLanguage(language) { await dispatch(arguments, io: io) }
    }

    /// ``run(_:io:)`` in the language already chosen.
    private func dispatch(_ arguments: [String], io: ProgramIO) async -> ExitCode {
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
            if Subcommand.asksForHelp(rest, lastOptions: command.lastOptions) {
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
            io.err.write(AppSupportText.text(.helpTooManyWords, ["program": program]) + "\n")
            return .usage
        }
        if words.count == 2, !command.subcommands.contains(words[1]) {
            let sub = words[1]
            io.err.write(
                AppSupportText.text(
                    .helpNoSubcommand,
                    [
                        "program": program, "name": name, "sub": sub,
                        "suggestion": Suggestion.didYouMean(sub, in: command.subcommands),
                    ]) + "\n")
            return .usage
        }
        io.out.write(command.help)
        return .success
    }

    /// The command called `name`, or nil after saying it is unknown (with
    /// the nearest command, if one is near).
    private func command(named name: String, io: ProgramIO) -> Subcommand? {
        if let command = commands.first(where: { $0.name == name }) { return command }
        let suggestion = Suggestion.didYouMean(name, in: commands.map(\.name) + ["help"])
        io.err.write(
            AppSupportText.text(.unknownCommand, ["program": program, "name": name, "suggestion": suggestion]) + "\n")
        return nil
    }
}
