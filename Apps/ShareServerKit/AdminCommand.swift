import Foundation
import ShareKitAppSupport
import ShareKitReferenceServer
import ShareKitSQLInterface

/// `share-server admin …`: changes for tests and operators, against the
/// database of a server that may be running (SQLite's WAL and busy timeout
/// let both write; the server's long polls notice the events).
enum AdminCommand {
    static let help = """
        Usage: share-server admin revoke-write --db PATH|URI --user U --channel C
               share-server admin revoke-session --db PATH|URI --session S

        --db is the server's SQLite file or its postgresql:// URI, as when serving.

        revoke-write    takes write permission on channel C from user U and emits
                        access.changed for the channel and its threads
        revoke-session  revokes session S and its children and emits session.revoked

        """

    /// `--db PATH`: the server's database.
    static let database = ValueOption(
        "--db", "PATH|URI", "the server's SQLite database, or its postgresql:// URI", completion: .files)
    /// `--user U`.
    static let user = ValueOption("--user", "U", "the user")
    /// `--channel C`.
    static let channel = ValueOption("--channel", "C", "the channel")
    /// `--session S`.
    static let session = ValueOption("--session", "S", "the session (session_id of login)")
    /// `admin revoke-write` as declared.
    static let revokeWrite = CommandDeclaration(
        "revoke-write", summary: "take write permission on a channel from a user", declared: [database, user, channel])
    /// `admin revoke-session` as declared.
    static let revokeSession = CommandDeclaration(
        "revoke-session", summary: "revoke a session and its children", declared: [database, session])

    /// The subcommands of `share-server admin`.
    static let subcommands = [revokeWrite, revokeSession].map(\.name)

    static func run(_ arguments: [String], io: ProgramIO) -> ExitCode {
        guard let sub = arguments.first, sub != "--help", sub != "-h" else {
            (arguments.isEmpty ? io.err : io.out).write(help)
            return arguments.isEmpty ? .usage : .success
        }
        do {
            switch sub {
            case "revoke-write":
                let parsed = try ParsedArguments(Array(arguments.dropFirst()), command: revokeWrite)
                let database = try open(try parsed.required(Self.database))
                defer { try? database.close() }
                let outcome = try ReferenceServerAdmin.revokeWrite(
                    database: database, username: try parsed.required(Self.user),
                    channelID: try parsed.required(Self.channel))
                io.out.write("\(outcome)\n")
                return .success
            case "revoke-session":
                let parsed = try ParsedArguments(Array(arguments.dropFirst()), command: revokeSession)
                let database = try open(try parsed.required(Self.database))
                defer { try? database.close() }
                let outcome = try ReferenceServerAdmin.revokeSession(
                    database: database, sessionID: try parsed.required(Self.session))
                io.out.write("\(outcome)\n")
                return .success
            default:
                io.err.write(
                    "share-server admin: unknown command '\(sub)'\(Suggestion.didYouMean(sub, in: subcommands)); "
                        + "run 'share-server admin --help'\n")
                return .usage
            }
        } catch let error as ProgramError where error.isUsage {
            io.err.write("share-server admin: \(error); run 'share-server admin --help'\n")
            return .usage
        } catch {
            io.err.write("share-server admin: \(error)\n")
            return .failure
        }
    }

    /// Opens an existing server database; a missing file is an error, not a new empty database.
    private static func open(_ argument: String) throws -> any SQLDatabase {
        try ServerDatabase(argument).openExisting()
    }
}
