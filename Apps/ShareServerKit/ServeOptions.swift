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

    init(_ arguments: [String]) throws {
        let parsed = try ParsedArguments(
            arguments, flags: ["--quiet"], options: ["--listen", "--db", "--seed", "--tls-cert", "--tls-key"])
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
    }
}
