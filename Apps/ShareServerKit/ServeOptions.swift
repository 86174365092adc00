import Foundation
import ShareKitAppSupport
import ShareKitDPoP

/// The command line of `share-server` when it serves.
struct ServeOptions {
    let host: String
    let port: Int
    /// `--db`: a SQLite path or a PostgreSQL URI.
    let database: ServerDatabase
    /// Where upload parts are kept: `--uploads`, else `PATH.uploads` next to a SQLite database.
    let uploadsDirectory: String
    /// `--public-origin URL`: the origin clients use, in canonical form; nil to use the bound address.
    let publicOrigin: String?
    let seed: String
    let tlsCertificate: String?
    let tlsKey: String?
    let quiet: Bool
    /// `--verbose`: the request log on standard error even when it is a
    /// terminal (else it goes to a file there).
    let verbose: Bool
    /// `--max-connections`: connections served at once (nil: the engine's default).
    let maxConnections: Int?
    /// `--max-connections-per-address`: 0 for no limit, e.g. behind a reverse proxy.
    let maxConnectionsPerAddress: Int?
    /// `--request-head-timeout`: seconds a client has to send a request head.
    let requestHeadTimeoutSeconds: Int?
    /// `--db-lock-timeout`: milliseconds a request waits for a lock another
    /// connection holds (SQLite's write lock; on PostgreSQL a row or named
    /// lock) before it is answered `503` (nil: the store's default, 5 s).
    let databaseLockTimeoutMilliseconds: Int?
    /// `--request-body-timeout`: the seconds of slack a request body has on the minimum rate.
    let requestBodyTimeoutSeconds: Int?
    /// `--min-body-rate`: the slowest average rate of a request body, bytes per second.
    let minimumBodyRate: Int?
    /// `--max-response-memory`: MiB of large answers held for clients that have not taken them.
    let maxResponseMemoryMiB: Int?

    /// `--listen HOST:PORT`.
    static let listen = ValueOption("--listen", "HOST:PORT", "address to listen on; port 0 picks a free port")
    /// `--db PATH`.
    static let database = ValueOption(
        "--db", "PATH|URI", "the SQLite database, or a postgresql:// URI", completion: .files)
    /// `--uploads DIR`.
    static let uploads = ValueOption(
        "--uploads", "DIR", "where upload parts are kept (default PATH.uploads)", completion: .files)
    /// `--public-origin URL`.
    static let publicOriginOption = ValueOption(
        "--public-origin", "URL", "the origin clients use (checked against each proof's htu, named in links)")
    /// `--seed demo|FILE`.
    static let seed = ValueOption("--seed", "demo|FILE", "the instance to load", completion: .files)
    /// `--tls-cert FILE`.
    static let tlsCertificate = ValueOption(
        "--tls-cert", "FILE", "serve HTTPS with this certificate", completion: .files)
    /// `--tls-key FILE`.
    static let tlsKey = ValueOption("--tls-key", "FILE", "the certificate's private key", completion: .files)
    /// `--quiet`.
    static let quietFlag = Flag("--quiet", "no request log on stderr")
    /// `--verbose`.
    static let verboseFlag = Flag("--verbose", "the request log on stderr even on a terminal")
    /// `--max-connections N`.
    static let maxConnectionsOption = ValueOption("--max-connections", "N", "connections served at once")
    /// `--max-connections-per-address N`.
    static let maxConnectionsPerAddressOption = ValueOption(
        "--max-connections-per-address", "N", "connections from one IP address")
    /// `--request-head-timeout S`.
    static let requestHeadTimeoutOption = ValueOption(
        "--request-head-timeout", "S", "seconds a client has to send a whole request head")
    /// `--db-lock-timeout MS`.
    static let databaseLockTimeoutOption = ValueOption(
        "--db-lock-timeout", "MS", "milliseconds a request waits for another connection's lock (default 5000)")
    /// `--request-body-timeout S`.
    static let requestBodyTimeoutOption = ValueOption(
        "--request-body-timeout", "S", "seconds of slack a request body has on the minimum rate")
    /// `--min-body-rate N`.
    static let minimumBodyRateOption = ValueOption(
        "--min-body-rate", "N", "the slowest average rate of a request body, bytes per second")
    /// `--max-response-memory MIB`.
    static let maxResponseMemoryOption = ValueOption(
        "--max-response-memory", "MIB", "MiB of large answers held for clients that have not taken them")

    /// Serving's command line as declared: the parser accepts exactly these.
    static let declaration = CommandDeclaration(
        "share-server", summary: "the ShareKit reference server",
        declared: [
            listen, database, uploads, publicOriginOption, seed, tlsCertificate, tlsKey, quietFlag, verboseFlag,
            maxConnectionsOption,
            maxConnectionsPerAddressOption, requestHeadTimeoutOption, databaseLockTimeoutOption,
            requestBodyTimeoutOption, minimumBodyRateOption, maxResponseMemoryOption,
        ])

    init(_ arguments: [String]) throws {
        let parsed = try ParsedArguments(arguments, command: Self.declaration)
        guard parsed.positionals.isEmpty else {
            throw ProgramError.usage("unexpected argument '\(parsed.positionals[0])'")
        }
        let listen = try parsed.required(Self.listen)
        guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]),
            (0...65535).contains(port), colon != listen.startIndex
        else {
            throw ProgramError.usage("--listen must be HOST:PORT, e.g. 127.0.0.1:0")
        }
        host = String(listen[..<colon])
        self.port = port
        database = ServerDatabase(try parsed.required(Self.database))
        switch database {
        case .sqlite(let path):
            uploadsDirectory = parsed.value(Self.uploads) ?? path + ".uploads"
        case .postgresql:
            guard let directory = parsed.value(Self.uploads) else {
                throw ProgramError.usage("--uploads DIR is needed with a PostgreSQL --db (upload parts are files)")
            }
            uploadsDirectory = directory
        }
        guard !uploadsDirectory.isEmpty else { throw ProgramError.usage("--uploads needs a directory") }
        publicOrigin = try parsed.value(Self.publicOriginOption).map(Self.publicOrigin)
        seed = try parsed.required(Self.seed)
        tlsCertificate = parsed.value(Self.tlsCertificate)
        tlsKey = parsed.value(Self.tlsKey)
        guard (tlsCertificate == nil) == (tlsKey == nil) else {
            throw ProgramError.usage("--tls-cert and --tls-key go together")
        }
        quiet = parsed.has(Self.quietFlag)
        verbose = parsed.has(Self.verboseFlag)
        maxConnections = try Self.number(parsed, Self.maxConnectionsOption, minimum: 1)
        maxConnectionsPerAddress = try Self.number(parsed, Self.maxConnectionsPerAddressOption, minimum: 0)
        requestHeadTimeoutSeconds = try Self.number(parsed, Self.requestHeadTimeoutOption, minimum: 1)
        databaseLockTimeoutMilliseconds = try Self.number(parsed, Self.databaseLockTimeoutOption, minimum: 1)
        requestBodyTimeoutSeconds = try Self.number(parsed, Self.requestBodyTimeoutOption, minimum: 1)
        minimumBodyRate = try Self.number(parsed, Self.minimumBodyRateOption, minimum: 1)
        maxResponseMemoryMiB = try Self.number(parsed, Self.maxResponseMemoryOption, minimum: 1)
    }

    /// The canonical form of a `--public-origin` value: `scheme://host[:port]`
    /// with scheme and host in lowercase and a default port dropped, as
    /// proofs' `htu` are compared.
    /// - Throws: a usage ``ProgramError`` unless it is an `http` or `https` URL with a
    ///   host, an optional port and nothing else (a lone `/` is allowed).
    static func publicOrigin(_ text: String) throws -> String {
        let refusal = ProgramError.usage(
            "--public-origin must be http:// or https:// with a host and an optional port and no path, "
                + "e.g. https://chat.example.com")
        guard let uri = try? HTTPTargetURI(text), uri.path == "/", !uri.host.isEmpty,
            let authorityStart = text.range(of: "://")?.upperBound
        else { throw refusal }
        // HTTPTargetURI drops user information, query and fragment, which an
        // origin must not have at all; and a path other than `/` (even one
        // that normalizes to it) is refused.
        let rest = text[authorityStart...]
        let authority = rest.prefix { $0 != "/" }
        // The host as DNS and TLS certificates spell it: ASCII letters,
        // digits, `-` and `.` (an internationalized name in its `xn--`
        // form), or an IP literal; no percent escapes.
        let hostCharacters = authority.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-.:[]".contains($0)) }
        guard hostCharacters, !text.contains(where: { "?#@\\".contains($0) }),
            rest.dropFirst(authority.count).count <= 1, !authority.hasSuffix(":")
        else { throw refusal }
        return uri.origin
    }

    /// The whole number given to `option`, nil when it is absent.
    /// - Throws: a usage ``ProgramError`` when it is not a number of at least `minimum`.
    private static func number(_ parsed: ParsedArguments, _ option: ValueOption, minimum: Int) throws -> Int? {
        guard let text = parsed.value(option) else { return nil }
        guard let value = Int(text), value >= minimum, value <= 1_000_000 else {
            throw ProgramError.usage("\(option.declaration.name) must be a whole number from \(minimum) to 1000000")
        }
        return value
    }
}
