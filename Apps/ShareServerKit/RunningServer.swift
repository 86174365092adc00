import Foundation
import ShareKitAppSupport
import ShareKitDPoP
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitMicroHTTPServer
import ShareKitOpenSSLCrypto
import ShareKitReferenceServer
import ShareKitSQLInterface

/// A started server: the engine, the application and the database, wired.
final class RunningServer {
    let origin: String
    private let engine: MicroHTTPServer
    private let database: any SQLDatabase

    private init(origin: String, engine: MicroHTTPServer, database: any SQLDatabase) {
        self.origin = origin
        self.engine = engine
        self.database = database
    }

    /// Reading connections kept open, about one per request thread that may
    /// read at once under load (fewer reopen connections all the time);
    /// more open while more read.
    static let readers = 8

    /// The HTTP engine's memory per connection (request head and read
    /// buffer), four times the engine's default: an upload's body is read
    /// in chunks of up to about half of it. The default connection limit
    /// (256) can then hold at most 64 MiB.
    static let connectionMemoryBytes = 256 * 1024

    /// Opens the database, loads the seed, starts listening.
    /// - Throws: a readable error for a bad seed, an unusable database path,
    ///   unreadable TLS files or an address that cannot be bound.
    static func start(_ options: ServeOptions, io: ProgramIO) throws -> RunningServer {
        let seed: ServerSeed
        if options.seed == "demo" {
            seed = DemoSeed.seed
        } else {
            guard let data = FileManager.default.contents(atPath: options.seed) else {
                throw ProgramError("cannot read the seed file \(options.seed)")
            }
            seed = try ServerSeed.parse(data)
        }
        var tls: HTTPServerTLS?
        if let certificate = options.tlsCertificate, let key = options.tlsKey {
            guard let certificatePEM = try? String(contentsOfFile: certificate, encoding: .utf8) else {
                throw ProgramError("cannot read the TLS certificate \(certificate)")
            }
            guard let keyPEM = try? String(contentsOfFile: key, encoding: .utf8) else {
                throw ProgramError("cannot read the TLS key \(key)")
            }
            tls = HTTPServerTLS(certificatePEM: certificatePEM, privateKeyPEM: keyPEM)
        }
        // SQLite: reading connections let requests read while a commit
        // flushes; the writer groups concurrent requests' transactions into one commit.
        let database = try options.database.open(
            readers: Self.readers, lockTimeout: options.databaseLockTimeoutMilliseconds.map { .milliseconds($0) })
        let crypto = OpenSSLCryptoProvider()
        let verifier = ES256ProofVerifier(
            crypto: crypto, replayStore: ReferenceServer.replayStore(on: database),
            iatWindowSeconds: seed.settings.iatWindowSeconds)
        let server = try ReferenceServer(
            database: database, crypto: crypto, verifier: verifier, settings: seed.settings,
            uploadsDirectory: options.uploadsDirectory)
        try server.loadSeed(seed)
        var log: (@Sendable (HTTPRequestLogRecord) -> Void)?
        if !options.quiet {
            let sink = requestLogSink(options, io: io)
            log = { record in sink.write("share-server: \(record)\n") }
        }
        var configuration = HTTPServerConfiguration(tls: tls, requestLog: log)
        // An upload part arrives in chunks of about half this; at the
        // engine's 64 KiB each 8 MiB part took some 256 poll, recv and write
        // calls and the server spent 6.8 s of CPU on a 2 GiB upload. At
        // 256 KiB it spends 3.4 s, and small requests are served as fast.
        configuration.connectionMemoryLimit = Self.connectionMemoryBytes
        if let value = options.maxConnections { configuration.maxConnections = value }
        if let value = options.maxConnectionsPerAddress { configuration.maxConnectionsPerAddress = value }
        if let value = options.requestHeadTimeoutSeconds { configuration.requestHeadTimeout = .seconds(value) }
        if let value = options.requestBodyTimeoutSeconds { configuration.requestBodyTimeout = .seconds(value) }
        if let value = options.minimumBodyRate { configuration.minimumBodyRate = value }
        if let value = options.maxResponseMemoryMiB { configuration.maxBufferedResponseBytes = value << 20 }
        // Behind a load balancer every process names the one origin clients
        // use, so a proof made for it is accepted by whichever process gets
        // it; set before the first request can arrive.
        if let publicOrigin = options.publicOrigin { server.setPublicOrigin(publicOrigin) }
        let engine = MicroHTTPServer(handler: server, configuration: configuration)
        let port = try engine.start(host: options.host, port: options.port)
        let hostPart = options.host.contains(":") ? "[\(options.host)]" : options.host
        let origin = "\(tls == nil ? "http" : "https")://\(hostPart):\(port)"
        if let publicOrigin = options.publicOrigin {
            io.err.write("share-server: public origin \(publicOrigin)\n")
        } else {
            server.setPublicOrigin(origin)
        }
        if options.seed == "demo" {
            let list = DemoSeed.passwords.map { "\($0.username) / \($0.password)" }.joined(separator: ", ")
            io.err.write("share-server: demo people (username / password): \(list)\n")
        }
        return RunningServer(origin: origin, engine: engine, database: database)
    }

    /// Where the request log goes: standard error, unless that is a
    /// terminal and `--verbose` was not given; then the log file, said in
    /// one line (or standard error after all, said why, when the file
    /// cannot be written).
    private static func requestLogSink(_ options: ServeOptions, io: ProgramIO) -> any OutputSink {
        guard LogFile.wanted(standardError: io.err, verbose: options.verbose) else { return io.err }
        let path =
            LogFile.defaultDirectory(environment: ProcessInfo.processInfo.environment) + "/share-server.log"
        do {
            let file = try LogFile.open(path)
            io.err.write("share-server: request log in \(path) (--verbose writes it here)\n")
            return file
        } catch {
            io.err.write("share-server: \(error); the request log stays here\n")
            return io.err
        }
    }

    /// Stops accepting, lets requests in flight finish, closes the database.
    func stop() {
        engine.stop(gracePeriod: .seconds(10))
        try? database.close()
    }
}
