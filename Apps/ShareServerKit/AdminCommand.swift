import AppSupport

/// `share-server admin …`: changes for tests and operators against the
/// database of a (possibly running) server.
enum AdminCommand {
    static func run(_ arguments: [String], io: ProgramIO) -> ExitCode {
        io.err.write("share-server admin: not available yet\n")
        return .unavailable
    }
}
