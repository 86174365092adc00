import AppSupport
import Foundation

/// The command line of `share-server` when it serves.
struct ServeOptions {
    let host: String
    let port: Int
    let databasePath: String
    let seed: String
    let tlsCertificate: String?
    let tlsKey: String?
    let quiet: Bool
    /// `--max-connections`: connections served at once (nil: the engine's default).
    let maxConnections: Int?
    /// `--max-connections-per-address`: 0 for no limit, e.g. behind a reverse proxy.
    let maxConnectionsPerAddress: Int?
    /// `--request-head-timeout`: seconds a client has to send a request head.
    let requestHeadTimeoutSeconds: Int?

    init(_ arguments: [String]) throws {
        let parsed = try ParsedArguments(
            arguments, flags: ["--quiet"],
            options: [
                "--listen", "--db", "--seed", "--tls-cert", "--tls-key", "--max-connections",
                "--max-connections-per-address", "--request-head-timeout",
            ])
        guard parsed.positionals.isEmpty else { throw UsageError("unexpected argument '\(parsed.positionals[0])'") }
        let listen = try parsed.required("--listen")
        guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]),
            (0...65535).contains(port), colon != listen.startIndex
        else {
            throw UsageError("--listen must be HOST:PORT, e.g. 127.0.0.1:0")
        }
        host = String(listen[..<colon])
        self.port = port
        databasePath = try parsed.required("--db")
        seed = try parsed.required("--seed")
        tlsCertificate = parsed.value("--tls-cert")
        tlsKey = parsed.value("--tls-key")
        guard (tlsCertificate == nil) == (tlsKey == nil) else {
            throw UsageError("--tls-cert and --tls-key go together")
        }
        quiet = parsed.has("--quiet")
        maxConnections = try Self.number(parsed, "--max-connections", minimum: 1)
        maxConnectionsPerAddress = try Self.number(parsed, "--max-connections-per-address", minimum: 0)
        requestHeadTimeoutSeconds = try Self.number(parsed, "--request-head-timeout", minimum: 1)
    }

    /// The whole number given to `option`, nil when it is absent.
    /// - Throws: ``UsageError`` when it is not a number of at least `minimum`.
    private static func number(_ parsed: ParsedArguments, _ option: String, minimum: Int) throws -> Int? {
        guard let text = parsed.value(option) else { return nil }
        guard let value = Int(text), value >= minimum, value <= 1_000_000 else {
            throw UsageError("\(option) must be a whole number from \(minimum) to 1000000")
        }
        return value
    }
}
