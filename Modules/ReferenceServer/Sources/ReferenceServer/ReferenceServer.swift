public import Foundation
import ShareKitCore
public import ShareKitCryptoInterface
public import ShareKitDPoPInterface
public import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
public import ShareKitSQLInterface
public import ShareKitWireContract
import Synchronization

/// The reference server of the wire contract (docs/protocol.md) as an HTTP
/// request handler: every operation, its rules and its storage.
///
/// It sees only interfaces: the HTTP engine calls it, it keeps its state in
/// an ``ShareKitSQLInterface/SQLDatabase``, checks DPoP proofs with a
/// ``ShareKitDPoPInterface/DPoPProofVerifier`` and uses a ``ShareKitCryptoInterface/CryptoProvider``
/// for tokens and digests. `share-server` wires the concrete ones in.
public final class ReferenceServer: HTTPRequestHandler, Sendable {
    let db: any SQLDatabase
    let crypto: any CryptoProvider
    let ids: ServerIdentifiers
    let settings: InstanceSettings
    let uploadsDirectory: String
    let clock: @Sendable () -> Date
    let events: EventSignal
    let verifier: any DPoPProofVerifier
    private let originState = Mutex<String>("http://127.0.0.1")
    private let nonceState = Mutex<(nonce: String, handOutUntil: Int64)?>(nil)

    /// The operations this server implements: every operation of the wire
    /// contract; `docs/api/openapi.yaml` lists the same.
    public static var routes: [WireOperation] { WireOperation.allCases }

    /// Opens the server's storage and prepares the schema.
    ///
    /// The verifier is an argument rather than something set later so that
    /// no request can ever reach a server that cannot check DPoP proofs.
    /// - Parameters:
    ///   - database: the database (the schema is migrated on open).
    ///   - crypto: random numbers, SHA-256 and PBKDF2.
    ///   - verifier: checks every request's DPoP proof; the composition root
    ///     builds it over ``replayStore(on:)`` of the same database so replays
    ///     are caught across restarts and processes.
    ///   - settings: the instance's limits and policies (from the seed).
    ///   - uploadsDirectory: where upload parts are kept; every process
    ///     serving the same database must be given the same folder (parts
    ///     sent to one process are completed on another).
    ///   - clock: the current time (tests move it).
    /// - Throws: `SQLError` when the database cannot be migrated, or a file
    ///   system error when the uploads directory cannot be created.
    public init(
        database: any SQLDatabase, crypto: any CryptoProvider, verifier: any DPoPProofVerifier,
        settings: InstanceSettings, uploadsDirectory: String, clock: @escaping @Sendable () -> Date = Date.init
    ) throws {
        self.db = database
        self.crypto = crypto
        self.verifier = verifier
        self.ids = ServerIdentifiers(crypto: crypto)
        self.settings = settings
        self.uploadsDirectory = uploadsDirectory
        self.clock = clock
        self.events = EventSignal()
        try FileManager.default.createDirectory(
            atPath: uploadsDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        _ = try database.migrate(ServerSchema.migrations(for: database.dialect))
    }

    /// The store of `jti` values in a server database that the DPoP verifier
    /// must be built with, so replays are caught across restarts and
    /// processes. It is built before the server (which takes the verifier in
    /// its initializer); its table exists once the server has opened the
    /// database, before the first request can be verified.
    /// - Parameter database: the database the server will be opened on.
    /// - Returns: the replay store kept in that database.
    public static func replayStore(on database: any SQLDatabase) -> any DPoPReplayStore {
        SQLReplayStore(db: database)
    }

    /// Sets the origin clients reach the server at: the public origin of a
    /// deployment (`https://chat.example.com`, the same for every process
    /// behind its load balancer), else the bound address
    /// (`http://127.0.0.1:PORT`) once the port is known. Proofs' `htu` are
    /// compared against it, and pushes name the instance by it.
    /// - Parameter origin: scheme, host and optional port, without a path.
    public func setPublicOrigin(_ origin: String) {
        originState.withLock { $0 = origin }
    }

    var publicOrigin: String { originState.withLock { $0 } }

    /// Loads a seed: users, spaces, channels, access, threads. Idempotent:
    /// existing rows are updated, passwords of existing users are kept.
    /// - Parameter seed: the instance to load.
    /// - Throws: `SQLError` or ``ReferenceServerError/invalidSeed(_:)``.
    public func loadSeed(_ seed: ServerSeed) throws {
        try seed.validate()
        // The password hashes of users not stored yet are made before the
        // seed's lock is taken: a hash takes a good part of a second, more on
        // a loaded machine, and a second process starting at once waits for
        // that lock no longer than the lock timeout (it would exit "database
        // busy"). A user another process stored meanwhile keeps its hash.
        var hashes: [String: (salt: [UInt8], hash: [UInt8])] = [:]
        for user in seed.users
        where try db.query("SELECT 1 FROM users WHERE username = ?", [.text(user.username)]).isEmpty {
            let salt = try crypto.randomBytes(count: 16)
            let hash = try crypto.pbkdf2SHA256(
                password: Array(user.password.utf8), salt: salt, iterations: settings.passwordIterations, length: 32)
            hashes[user.username] = (salt, hash)
        }
        try db.transaction {
            // Processes starting at once on one PostgreSQL database load it
            // one after the other: the second finds the first one's users.
            try lockKeys(["seed"])
            for user in seed.users {
                guard let (salt, hash) = hashes[user.username] else { continue }
                let exists = try !db.query("SELECT 1 FROM users WHERE username = ?", [.text(user.username)]).isEmpty
                if exists { continue }
                try db.execute(
                    "INSERT INTO users (username, password_salt, password_hash, password_iterations) VALUES (?, ?, ?, ?)",
                    [.text(user.username), .blob(salt), .blob(hash), .integer(Int64(settings.passwordIterations))])
            }
            for space in seed.spaces {
                try db.execute(
                    "INSERT INTO spaces (id, name) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET name = excluded.name",
                    [.text(space.id), .text(space.name)])
                for channel in space.channels {
                    try db.execute(
                        """
                        INSERT INTO channels (id, space_id, name, kind) VALUES (?, ?, ?, ?)
                        ON CONFLICT(id) DO UPDATE SET space_id = excluded.space_id, name = excluded.name, kind = excluded.kind
                        """, [.text(channel.id), .text(space.id), .text(channel.name), .text(channel.kind)])
                    let members = Set(channel.readers + channel.writers)
                    for member in members {
                        let canWrite = channel.writers.contains(member)
                        try db.execute(
                            """
                            INSERT INTO channel_access (channel_id, username, can_read, can_write) VALUES (?, ?, 1, ?)
                            ON CONFLICT(channel_id, username) DO UPDATE SET can_read = 1, can_write = excluded.can_write
                            """, [.text(channel.id), .text(member), .integer(canWrite ? 1 : 0)])
                    }
                }
            }
            let now = RFC3339.string(clock(), precision: .milliseconds)
            for thread in seed.threads {
                try db.execute(
                    """
                    INSERT INTO threads (id, channel_id, title, title_folded, created_at) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET channel_id = excluded.channel_id, title = excluded.title,
                        title_folded = excluded.title_folded
                    """,
                    [
                        .text(thread.id), .text(thread.channelID), .text(thread.title), .text(fold(thread.title)),
                        .text(now),
                    ])
            }
        }
    }

    // MARK: HTTPRequestHandler

    public func prepare(for head: HTTPRequestHead) throws -> HTTPBodyDisposition {
        // Authenticating may revoke a session (and write its event).
        defer { events.wakeIfWritten() }
        if case .found(let route) = RouteTable.lookup(head), route.operation == .uploadPart {
            return try UploadRoutes.prepareUploadPart(self, head: head, route: route)
        }
        return .buffer(maxBytes: JSONBody.maxBytes)
    }

    public func respond(to head: HTTPRequestHead, body: [UInt8]) throws -> HTTPResponse {
        defer { events.wakeIfWritten() }
        // The web reader's pages are for browsers, not routes of the contract.
        if let page = WebReader.route(head) {
            do {
                return try page(self, head, body)
            } catch {
                // No problem document for a browser: a page that says so, nothing of the error.
                return WebPage.refused(503, "The server cannot answer now. Try again later.")
            }
        }
        let route: Route
        switch RouteTable.lookup(head) {
        case .found(let found):
            route = found
        case .wrongMethod(let methods):
            let allowed = methods.map(\.rawValue)
            var response = Problems.methodNotAllowed(allowed).response()
            response.headers.set("Allow", allowed.joined(separator: ", "))
            return response
        case .notFound:
            return Problems.routeNotFound.response()
        }
        let context = RequestContext(head: head, body: body, route: route)
        var response: HTTPResponse
        do {
            response = try RouteTable.handler(for: route.operation)(self, context)
        } catch let problem as HTTPProblem {
            response = problem.response()
        } catch let problem as ProblemResponse {
            response = problem.response
        } catch let error as SQLError {
            response = UploadRoutes.storageUnavailable(error)
        } catch let error as ReferenceServerError where error.isOutOfSpace {
            response = UploadRoutes.insufficientStorage()
        }
        response.routeTemplate = route.operation.template
        attachNonce(to: &response)
        return response
    }

    public func serverWillStop() {
        // Long polls notice the stop flag and answer at once (EventRoutes.list).
        events.stop()
    }

    // MARK: Helpers shared by the routes

    /// Case- and accent-insensitive folding for search.
    func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: Locale(identifier: "en_US_POSIX"))
    }

    /// Unix seconds now.
    var now: Int64 { UnixClock.seconds(of: clock()) }

    /// Appends an event to a user's feed; long polls wake when the request is done.
    ///
    /// The insert runs in a transaction (a savepoint when the caller's
    /// transaction is open). Events commit in the order of their `seq`
    /// whichever process writes them (SQLite's one writer; on PostgreSQL
    /// the lock that `ServerSchema.eventsInCommitOrder` takes before the
    /// insert draws its `seq`), so a reader that has seen `seq` n can never
    /// later find a smaller one committed behind it (the feed's cursor would
    /// skip it forever).
    func emit(_ type: String, to username: String, fields: [String: JSONValue]) throws {
        let body = try ServerEvents.bodyText(type: type, fields: fields)
        try db.transaction {
            try db.execute(
                "INSERT INTO events (username, type, body, created_at) VALUES (?, ?, ?, ?)",
                [
                    .text(username), .text(type), .text(body), .text(RFC3339.string(clock(), precision: .milliseconds)),
                ])
        }
        events.noteWritten()
    }

    /// The nonce to hand out now, when the instance demands nonces.
    ///
    /// One nonce serves every request for half of `nonce_ttl_seconds`, so a
    /// client's nonce stays valid for at least the other half, and the
    /// server writes one row per rotation rather than one (or two) per request.
    func currentNonce() throws -> String {
        let now = self.now
        if let current = nonceState.withLock({ $0 }), current.handOutUntil > now { return current.nonce }
        let nonce = try issueNonce()
        nonceState.withLock { $0 = (nonce, now + max(1, settings.nonceTTLSeconds / 2)) }
        return nonce
    }

    /// Adds the current nonce to a response that carries none (every
    /// answer may refresh the client's nonce), when nonces are required.
    /// - Parameter response: the answer to send.
    func attachNonce(to response: inout HTTPResponse) {
        guard settings.requireNonce, !response.headers.contains("DPoP-Nonce"), let nonce = try? currentNonce() else {
            return
        }
        response.headers.set("DPoP-Nonce", nonce)
    }

    /// A new DPoP nonce, remembered for `nonce_ttl_seconds`.
    private func issueNonce() throws -> String {
        let nonce = try ids.token()
        try db.execute(
            "INSERT INTO dpop_nonces (nonce, expires_at) VALUES (?, ?)",
            [.text(nonce), .integer(now + settings.nonceTTLSeconds)])
        try db.execute("DELETE FROM dpop_nonces WHERE expires_at < ?", [.integer(now)])
        return nonce
    }

    /// The nonce requirement for a proof when the instance demands nonces.
    func nonceRequirement() throws -> DPoPNonceRequirement? {
        guard settings.requireNonce else { return nil }
        let accepted = try db.query("SELECT nonce FROM dpop_nonces WHERE expires_at >= ?", [.integer(now)])
            .map { try $0.get("nonce", as: String.self) }
        return DPoPNonceRequirement(acceptedNonces: Set(accepted), nonceToSend: try currentNonce())
    }
}

/// A complete response thrown by a route (a nonce challenge, a replay).
///
/// Not a twin of `HTTPProblem`: what it carries is a whole answer, a
/// problem with headers of its own (`WWW-Authenticate`, `Retry-After`,
/// `DPoP-Nonce`) or, on a token endpoint, an OAuth error body that is not
/// a problem document at all (RFC 9449 section 8).
struct ProblemResponse: Error {
    let response: HTTPResponse
}
