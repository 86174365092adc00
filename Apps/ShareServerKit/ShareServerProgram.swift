import Foundation
public import ShareKitAppSupport
import ShareKitCore
import ShareKitDPoP
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitMicroHTTPServer
import ShareKitOpenSSLCrypto
import ShareKitReferenceServer
import ShareKitSQLiteStore
import ShareKitWireContract

/// The `share-server` program: the reference server of the wire contract
/// (`docs/protocol.md`), on real HTTP (libmicrohttpd) and SQLite.
///
/// This type is the composition root of the server: the only place that
/// names the HTTP engine, the database, the crypto library and the DPoP
/// verifier the ``ReferenceServer`` runs on.
public enum ShareServerProgram {
    /// The help text.
    public static let help = """
        share-server: the ShareKit reference server (docs/protocol.md)

        Usage: share-server --listen HOST:PORT --db PATH|URI --seed demo|FILE [options]
               share-server admin revoke-write --db PATH|URI --user U --channel C
               share-server admin revoke-session --db PATH|URI --session S
               share-server routes [--json]
               share-server help [routes|admin] | manpage
               share-server --help | --version

        Serving:
          --listen HOST:PORT   address to listen on; port 0 picks a free port
          --db PATH            SQLite database (created if missing, with its
                               missing folders, 0700)
          --db URI             PostgreSQL database, as a libpq connection URI:
                               postgresql://USER@HOST/DB?host=/socket/dir (or
                               postgres://…); the schema is created or migrated;
                               needs --uploads; a password is never printed
          --uploads DIR        where upload parts are kept (default PATH.uploads/
                               next to a SQLite database); every process serving
                               one database must be given the same folder
          --public-origin URL  the origin clients use, e.g. https://chat.example.com
                               behind a load balancer (scheme, host, optional port;
                               default: the address listened on); every proof's
                               htu is checked against it and the server names it
          --seed demo|FILE     the instance to load (idempotent); `demo` seeds
                               alex, sam and robin and prints their passwords on stderr
          --tls-cert FILE      serve HTTPS with this PEM certificate (needs --tls-key)
          --tls-key FILE       the certificate's PEM private key
          --quiet              no request log
          --verbose            the request log on stderr even on a terminal
          --max-connections N  connections served at once (default 256); when full,
                               one not being answered is closed (first of an address
                               holding more than its share, else the one waiting
                               longest for its request head), or a new one is
                               answered 503
          --max-connections-per-address N
                               connections from one IP address (default 32; 0 for
                               no limit, e.g. behind a reverse proxy)
          --request-head-timeout S
                               seconds a client has to send a whole request head
                               (default 10; bytes sent slowly do not extend it)
          --db-lock-timeout MS milliseconds a request waits for a lock another
                               process or connection holds (SQLite's write lock;
                               on PostgreSQL a row or named lock) (default
                               5000); then it is answered 503 with Retry-After,
                               having changed nothing
          --request-body-timeout S
                               seconds of slack a request body has on --min-body-rate
                               (default 10): S + SIZE / RATE seconds for a body in all
          --min-body-rate N    the slowest average rate of a request body in bytes
                               per second (default 1024); a body behind it is
                               answered 408 and its connection closed
          --max-response-memory MIB
                               MiB of answers over 64 KiB held for clients that have
                               not taken them yet (default 64); past it a GET of a
                               large answer is answered 503 with Retry-After

        Several processes may serve one database at once (give them the same
        --uploads and --public-origin): replay checks, nonces, refresh rotation,
        idempotency, uploads, the event feed, throttling and quotas hold across them.

        The request log (one line a request) goes to stderr; when stderr is a
        terminal (a server started with `&`), to $XDG_STATE_HOME/sharekit/share-server.log
        (~/.local/state/sharekit/share-server.log, 0600) instead, said in one line
        at start, unless --verbose. A log over 16 MiB at start is moved to .log.1.

        The first line on stdout is `listening on http://HOST:PORT` (or https://),
        the address listened on, printed once the socket accepts connections. SIGTERM and SIGINT stop the
        server gracefully: in-flight requests finish, the database is closed.

        Exit codes:
          0   stopped by SIGTERM/SIGINT, or a command (routes, admin) done
          1   failure: the database or the address cannot be used, an admin change failed
          2   invalid command line

        """

    /// Runs the server with `arguments` (without the program name).
    /// - Returns: the process exit code.
    public static func main(_ arguments: [String], io: ProgramIO = ProgramIO()) async -> Int32 {
        // The reference server is an operator's and a test's tool: English only.
        await Language.withLanguage(.english) { await run(arguments, io: io) }
    }

    /// ``main(_:io:)`` in English.
    private static func run(_ arguments: [String], io: ProgramIO) async -> Int32 {
        if arguments.first == "--help" || arguments.first == "-h" || arguments.isEmpty {
            (arguments.isEmpty ? io.err : io.out).write(help)
            return (arguments.isEmpty ? ExitCode.usage : .success).rawValue
        }
        if arguments.first == "help" { return helpCommand(Array(arguments.dropFirst()), io: io).rawValue }
        if Subcommand.asksForHelp(arguments) {
            switch arguments.first {
            case "routes": io.out.write(routesHelp)
            case "admin": io.out.write(AdminCommand.help)
            default: io.out.write(help)
            }
            return ExitCode.success.rawValue
        }
        if arguments == ["--version"] {
            io.out.write("share-server \(ShareKitVersion.current) (SQLite \(SQLiteLibrary.version))\n")
            return ExitCode.success.rawValue
        }
        switch arguments.first {
        case "manpage" where arguments.count == 1:
            io.out.write(manualPage.roff)
            return ExitCode.success.rawValue
        case "routes":
            return routes(Array(arguments.dropFirst()), io: io).rawValue
        case "admin":
            return AdminCommand.run(Array(arguments.dropFirst()), io: io).rawValue
        case let word? where !word.hasPrefix("-"):
            io.err.write(
                "share-server: unknown command '\(word)'\(Suggestion.didYouMean(word, in: ["routes", "admin", "help", "manpage"])); "
                    + "run 'share-server --help'\n")
            return ExitCode.usage.rawValue
        default:
            return await serve(arguments, io: io).rawValue
        }
    }

    /// The manual page (`share-server manpage`; contrib/man/share-server.1).
    public static var manualPage: ManualPage {
        ManualPage(
            program: "share-server", summary: "the ShareKit reference server",
            sections: [
                ("DESCRIPTION", help), ("SHARE-SERVER ROUTES", routesHelp), ("SHARE-SERVER ADMIN", AdminCommand.help),
            ])
    }

    /// The text of `share-server routes --help`.
    static let routesHelp = """
        Usage: share-server routes [--json]

        Prints the server's route table: method, path template and operation id, one
        route a line; with --json a JSON array of {"method", "template", "operation_id"}.
        tools/validate-openapi compares it with docs/api/openapi.yaml.

        Exit codes: 0 printed, 2 invalid command line.

        """

    /// `share-server help [routes|admin [SUBCOMMAND]]`: the same text as `--help` there.
    static func helpCommand(_ words: [String], io: ProgramIO) -> ExitCode {
        switch words.first {
        case nil:
            io.out.write(help)
        case "routes" where words.count == 1:
            io.out.write(routesHelp)
        case "admin" where words.count == 1 || (words.count == 2 && AdminCommand.subcommands.contains(words[1])):
            io.out.write(AdminCommand.help)
        default:
            let word = words.last ?? ""
            let known = words.count == 1 ? ["routes", "admin"] : AdminCommand.subcommands
            io.err.write(
                "share-server help: no help for '\(words.joined(separator: " "))'"
                    + Suggestion.didYouMean(word, in: known) + "; run 'share-server --help'\n")
            return .usage
        }
        return .success
    }

    static func routes(_ arguments: [String], io: ProgramIO) -> ExitCode {
        guard arguments.allSatisfy({ $0 == "--json" }) else {
            io.err.write(
                "share-server routes: unexpected argument; use --json or nothing; run 'share-server routes --help'\n")
            return .usage
        }
        if arguments.contains("--json") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let data = (try? encoder.encode(ReferenceServer.routes.map(RouteRow.init))) ?? Data()
            io.out.write(String(decoding: data, as: UTF8.self) + "\n")
        } else {
            for route in ReferenceServer.routes {
                io.out.write(
                    "\(route.method.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)) \(route.template)  \(route.operationID)\n"
                )
            }
        }
        return .success
    }

    static func serve(_ arguments: [String], io: ProgramIO) async -> ExitCode {
        let options: ServeOptions
        do {
            options = try ServeOptions(arguments)
        } catch {
            io.err.write("share-server: \(error); run 'share-server --help'\n")
            return .usage
        }
        // Before anyone can learn the address: a SIGTERM sent as soon as
        // the `listening on` line appears must stop the server.
        SignalWaiter.install()
        let running: RunningServer
        do {
            running = try RunningServer.start(options, io: io)
        } catch let error as HTTPServerError {
            // Nothing was served or changed; for an address, another one is the way on.
            let advice =
                if case .invalidAddress = error {
                    "; give another address with --listen HOST:PORT (port 0 takes a free one)"
                } else { "" }
            io.err.write("share-server: \(error)\(advice)\n")
            return .failure
        } catch {
            io.err.write("share-server: \(error)\n")
            return .failure
        }
        io.out.write("listening on \(running.origin)\n")
        await SignalWaiter.waitForTermination()
        io.err.write("share-server: stopping (finishing requests in flight)\n")
        running.stop()
        io.err.write("share-server: stopped\n")
        return .success
    }
}

/// One row of `share-server routes --json`: `{"method", "operation_id", "template"}`.
private struct RouteRow: Encodable {
    let method: String
    let operationID: String
    let template: String

    init(_ operation: WireOperation) {
        method = operation.method.rawValue
        operationID = operation.operationID
        template = operation.template
    }

    private enum CodingKeys: String, CodingKey {
        case method, template
        case operationID = "operation_id"
    }
}
