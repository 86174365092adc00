public import AppSupport
import ShareCore

/// The `share-server` program: the reference server of the wire contract
/// (PROTOCOL.md), on real HTTP and SQLite.
///
/// This type is the composition root of the server.
public enum ShareServerProgram {
    /// The help text.
    public static let help = """
        share-server: the ShareKit reference server (PROTOCOL.md)

        Usage: share-server --listen HOST:PORT --db PATH --seed demo|FILE [--tls-cert F --tls-key F]
               share-server admin revoke-write --db PATH --user U --channel C
               share-server admin revoke-session --db PATH --session S
               share-server --help | --version

        Exit codes:
        \(ExitCode.allCases.map { "  \($0.rawValue)   \($0.meaning)" }.joined(separator: "\n"))

        """

    /// Runs the server with `arguments` (without the program name).
    /// - Returns: the process exit code.
    public static func main(_ arguments: [String], io: ProgramIO = ProgramIO()) async -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            io.out.write(help)
            return ExitCode.success.rawValue
        }
        if arguments == ["--version"] {
            io.out.write("share-server \(ShareKitVersion.current)\n")
            return ExitCode.success.rawValue
        }
        io.err.write(
            "share-server: serving is not available in this build of ShareKit \(ShareKitVersion.current) (planned in issue #4)\n"
        )
        return ExitCode.unavailable.rawValue
    }
}
