import AppSupport
import Foundation
import ShareCore
import TargetStoreInterface

/// `share targets`: the recent targets (from the shared state, offline) or,
/// with `--search`, the writable targets whose names match, from the server.
enum TargetsCommand {
    static let help = """
        Usage: share targets [--search QUERY] [--limit N] [--json] [--server URL]

        Without --search: the recent targets, newest first (the targets of the last
        successful shares; they work offline). With --search: the threads and channels
        whose names start with or contain QUERY, ignoring case and accents; only
        targets with write permission; a forum channel is offered as a new post.

        Each line shows the display path and the reference to give `share send --to`.
        --json prints an array of {"kind", "id", "display_path"}.

        Exit codes: 0 listed (possibly nothing), 1 the server cannot be asked (search
        only), 2 invalid command line.

        """

    static func run(_ arguments: [String], io: ProgramIO, environment: [String: String]) async -> ExitCode {
        let parsed: ParsedArguments
        do {
            parsed = try ParsedArguments(arguments, command: ShareCommands.targets)
        } catch {
            io.err.write("share targets: \(error); run 'share targets --help'\n")
            return .usage
        }
        if parsed.asksForHelp {
            io.out.write(help)
            return .success
        }
        guard let limit = Int(parsed.value(Options.limit) ?? "20"), limit > 0, parsed.positionals.isEmpty else {
            io.err.write("share targets: --limit must be a positive number; run 'share targets --help'\n")
            return .usage
        }
        let context: CLIContext
        do {
            context = try CLIContext(environment: environment, server: parsed.value(Options.server))
        } catch {
            io.err.write("share targets: \(error)\n")
            return .failure
        }
        let targets: [ShareTarget]
        if let query = parsed.value(Options.search) {
            do {
                targets = try await context.targetDirectory.search(query: query, limit: limit).map(\.target)
            } catch {
                io.err.write(
                    "share targets: cannot search \(context.origin): \(TerminalText.neutralised("\(error)"))\n")
                return .failure
            }
        } else {
            do {
                let recent = try context.recents.list()
                if let warning = recent.warning { io.err.write("share targets: \(warning)\n") }
                targets = Array(recent.targets.prefix(limit))
            } catch {
                io.err.write("share targets: \(error)\n")
                return .failure
            }
        }
        if parsed.has(Options.json) {
            io.writeJSON(.array(targets.map(SendReport.target)))
        } else if targets.isEmpty {
            io.err.write(
                parsed.value(Options.search) == nil
                    ? "no recent targets yet: search with `share targets --search NAME`\n"
                    : "no writable target matches\n")
        } else {
            for target in targets {
                // Names and titles are other users' words: shown, never obeyed.
                io.out.write(
                    "\(TerminalText.neutralised(target.displayPath))\t"
                        + "\(TerminalText.neutralised(PickerLaunch.reference(of: target)))\n")
            }
        }
        return .success
    }
}
