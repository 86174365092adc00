import Foundation
import ShareKitAppSupport
import ShareKitCore
import ShareKitTargetStoreInterface

/// `share targets`: the recent targets (from the shared state, offline) or,
/// with `--search`, the writable targets whose names match, from the server.
enum TargetsCommand {
    static var help: String { t(.targetsHelp) }

    static func run(_ arguments: [String], io: ProgramIO, environment: [String: String]) async -> ExitCode {
        let parsed: ParsedArguments
        do {
            parsed = try ParsedArguments(arguments, command: ShareCommands.targets)
        } catch {
            io.err.write(
                "share targets: "
                    + t(.runHelp, ["message": LocalizedText(describing: error).localized, "command": "share targets"])
                    + "\n")
            return .usage
        }
        if parsed.asksForHelp {
            io.out.write(help)
            return .success
        }
        guard let limit = Int(parsed.value(Options.limit) ?? "20"), limit > 0, parsed.positionals.isEmpty else {
            io.err.write(
                "share targets: " + t(.runHelp, ["message": t(.limitPositive), "command": "share targets"]) + "\n")
            return .usage
        }
        let context: CLIContext
        do {
            // The recent targets are read from the shared state: libcurl is
            // started only for a search, which asks the server.
            context = try CLIContext(
                environment: environment, server: parsed.value(Options.server),
                loadsLibraryEarly: parsed.value(Options.search) != nil)
        } catch let error as ProgramError where error.isUsage {
            io.err.write(
                "share targets: " + t(.runHelp, ["message": error.localizedText.localized, "command": "share targets"])
                    + "\n")
            return .usage
        } catch {
            io.err.write("share targets: \(LocalizedText(describing: error).localized)\n")
            return .failure
        }
        let targets: [ShareTarget]
        if let query = parsed.value(Options.search) {
            do {
                targets = try await context.targetDirectory.search(query: query, limit: limit).map(\.target)
            } catch {
                io.err.write(
                    "share targets: "
                        + t(
                            .cannotSearch,
                            [
                                "origin": context.origin,
                                "error": TerminalText.neutralised(LocalizedText(describing: error).localized),
                            ]) + "\n")
                return .failure
            }
        } else {
            do {
                let recent = try context.recents.list()
                if let warning = recent.warning { io.err.write("share targets: \(warning)\n") }
                targets = Array(recent.targets.prefix(limit))
            } catch {
                io.err.write("share targets: \(LocalizedText(describing: error).localized)\n")
                return .failure
            }
        }
        if parsed.has(Options.json) {
            io.writeJSON(.array(targets.map(SendReport.target)))
        } else if targets.isEmpty {
            io.err.write(
                parsed.value(Options.search) == nil
                    ? t(.noRecentTargets) + "\n"
                    : t(.noWritableMatch) + "\n")
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
