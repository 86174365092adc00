import Foundation
import ShareCore

/// One subcommand of a program: its name, a one-line summary for `--help`,
/// and what runs it.
public struct Subcommand: Sendable {
    /// The word after the program name.
    public let name: String
    /// A line for the program's help.
    public let summary: String
    /// Runs the command with the remaining arguments.
    public let run: @Sendable ([String], ProgramIO) async -> ExitCode

    /// Makes a subcommand.
    public init(name: String, summary: String, run: @escaping @Sendable ([String], ProgramIO) async -> ExitCode) {
        self.name = name
        self.summary = summary
        self.run = run
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
        text += "\nRun '\(program) <command> --help' for a command's options.\n\n" + ExitCode.helpSection
        return text
    }

    /// Dispatches `arguments` (without the program name).
    /// - Returns: the exit code to end the process with.
    public func run(_ arguments: [String], io: ProgramIO) async -> ExitCode {
        guard let first = arguments.first else {
            io.err.write(help)
            return .usage
        }
        switch first {
        case "--help", "-h", "help":
            io.out.write(help)
            return .success
        case "--version":
            io.out.write("\(program) \(ShareKitVersion.current)" + (versionDetails.map { " (\($0))" } ?? "") + "\n")
            return .success
        default:
            guard let command = commands.first(where: { $0.name == first }) else {
                io.err.write("\(program): unknown command '\(first)'; run '\(program) --help' for the list\n")
                return .usage
            }
            return await command.run(Array(arguments.dropFirst()), io)
        }
    }
}
