public import AppSupport
import ShareCore

/// The `share-daemon` program: the containing app of ShareKit. It holds the
/// person's session, keeps the child session for the CLI, takes the share
/// inbox over into its outbox and sends each share exactly once.
///
/// This type is the composition root of the daemon.
public enum ShareDaemonProgram {
    /// The help text; the daemon takes options, not subcommands.
    public static let help = """
        share-daemon: the ShareKit daemon (session keeper, inbox takeover, outbox)

        Usage: share-daemon [--once]
               share-daemon --help | --version

        Options:
          --once      run one pass of every service, then exit
          --help      show this text
          --version   show the version

        \(ExitCode.helpSection)
        """

    /// Runs the daemon with `arguments` (without the program name).
    /// - Returns: the process exit code.
    public static func main(_ arguments: [String], io: ProgramIO = ProgramIO()) async -> Int32 {
        let parsed: ParsedArguments
        do {
            parsed = try ParsedArguments(arguments, flags: ["--help", "-h", "--version", "--once"], options: [])
        } catch {
            io.err.write("share-daemon: \(error); run 'share-daemon --help'\n")
            return ExitCode.usage.rawValue
        }
        if parsed.has("--help") || parsed.has("-h") {
            io.out.write(help)
            return ExitCode.success.rawValue
        }
        if parsed.has("--version") {
            io.out.write("share-daemon \(ShareKitVersion.current)\n")
            return ExitCode.success.rawValue
        }
        guard parsed.positionals.isEmpty else {
            io.err.write("share-daemon: unexpected argument '\(parsed.positionals[0])'; run 'share-daemon --help'\n")
            return ExitCode.usage.rawValue
        }
        io.err.write(
            "share-daemon: the daemon's services are not available in this build of ShareKit \(ShareKitVersion.current) (planned in issue #7)\n"
        )
        return ExitCode.unavailable.rawValue
    }
}
