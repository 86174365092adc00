import Foundation
import ShareKitCore
import ShareKitCryptoInterface
import ShareKitDPoPInterface
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitSQLInterface
import ShareKitWireContract

/// Sessions and tokens: login, refresh with rotation and reuse detection,
/// extension (child) sessions, logout, and the audit.
enum AuthRoutes {
    static func login(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        let body = try JSONBody.decode(LoginRequest.self, from: context.body)
        let proof = try Authenticator.verifyProof(
            server, context, accessToken: nil, boundThumbprint: nil, tokenEndpoint: true)
        // A request the server refuses whatever the password is not an attempt to count.
        let component = body.clientComponent ?? "app"
        guard component == "app" else {
            throw Problems.badRequest("Login is for client_component \"app\"; extensions get child sessions.")
        }
        let attempt = try checkPassword(
            server, username: body.username, password: body.password,
            address: context.head.remoteAddress?.host ?? "unknown")
        let tokens = try server.db.transaction {
            try LoginThrottle.recordSuccess(server, attempt)
            return try createSession(
                server, username: body.username, parentID: nil, component: component, jkt: proof.thumbprint)
        }
        return JSONBody.response(201, tokens.json(server.settings), headers: ["Cache-Control": "no-store"])
    }

    /// Checks a person's password, throttled (LoginThrottle): the API's
    /// login and the web reader's login page share it, so one set of
    /// counters covers both and neither is a way around the other's limits.
    /// - Parameters:
    ///   - username: the username given.
    ///   - password: the password given.
    ///   - address: the client's address (the throttle counts per address too).
    /// - Returns: the admitted attempt; the caller records its success in
    ///   the transaction that opens the session.
    /// - Throws: ``Problems/invalidCredentials``; a ``ProblemResponse`` of
    ///   `429 login_throttled` with `Retry-After` while a block lasts.
    static func checkPassword(_ server: ReferenceServer, username: String, password: String, address: String) throws
        -> LoginThrottle.Attempt
    {
        // Counted as a failure before the password is checked (LoginThrottle).
        let attempt: LoginThrottle.Attempt
        switch try LoginThrottle.admit(server, username: username, address: address) {
        case .admitted(let admitted):
            attempt = admitted
        case .blocked(let retryAfterSeconds):
            throw ProblemResponse(
                response: Problems.loginThrottled(retryAfterSeconds: retryAfterSeconds).response(
                    headers: ["Retry-After": String(retryAfterSeconds)]))
        }
        guard
            let user = try server.db.query(
                "SELECT password_salt, password_hash, password_iterations FROM users WHERE username = ?",
                [.text(username)]
            ).first
        else {
            // Spend the same work as a real check so timing does not reveal which usernames exist.
            _ = try server.crypto.pbkdf2SHA256(
                password: Array(password.utf8), salt: [UInt8](repeating: 0, count: 16),
                iterations: server.settings.passwordIterations, length: 32)
            try LoginThrottle.recordFailure(server, attempt, userExists: false)
            throw Problems.invalidCredentials
        }
        let expected = try user.get("password_hash", as: [UInt8].self)
        let derived = try server.crypto.pbkdf2SHA256(
            password: Array(password.utf8), salt: try user.get("password_salt"),
            iterations: Int(try user.get("password_iterations", as: Int64.self)), length: expected.count)
        guard constantTimeEqual(derived, expected) else {
            try LoginThrottle.recordFailure(server, attempt, userExists: true)
            throw Problems.invalidCredentials
        }
        return attempt
    }

    static func refresh(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        let body = try JSONBody.decode(RefreshRequest.self, from: context.body)
        // Range-checked where decoded: a number from outside.
        if let attempt = body.retryAttempt, !RefreshRequest.retryAttempts.contains(attempt) {
            throw Problems.badRequest(
                "retry_attempt must be \(RefreshRequest.retryAttempts.lowerBound) to \(RefreshRequest.retryAttempts.upperBound)."
            )
        }
        let hash = try server.ids.hash(body.refreshToken)
        guard let owner = try sessionForRefresh(server, hash: hash) else { throw Problems.invalidGrant }
        // The proof must come from the key the session is bound to, before anything changes.
        _ = try Authenticator.verifyProof(
            server, context, accessToken: nil, boundThumbprint: owner.jkt, tokenEndpoint: true)
        let outcome: Result<IssuedTokens, HTTPProblem> = try server.db.transaction {
            // Refreshes of one session, on any process, decide one after the
            // other: a retry's number is taken once, and of two refreshes
            // with one token the second sees the first one's rotation.
            try server.lockKeys([sessionLockName(owner.sessionID)])
            let current = try server.db.query(
                "SELECT id, revoked_at, refresh_expires_at FROM sessions WHERE refresh_hash = ?", [.text(hash)]
            ).first
            let attempt = body.retryAttempt ?? 1
            if current == nil, body.retry == true,
                let unused = try lostRotation(server, sessionID: owner.sessionID, hash: hash, attempt: attempt)
            {
                // The token's rotation committed but its answer never arrived:
                // nobody holds the pair it made (never used), the same key
                // asks again. Rotate once more instead of ending the family,
                // once per retry number: the new pair keeps this token as its
                // predecessor with the number, so the next retry (its answer
                // lost too) must bring a higher one, and a copy of this
                // request (a replay, or the same retry sent twice at once) is reuse.
                let tokens = try IssuedTokens(server: server, sessionID: owner.sessionID)
                guard
                    try rotate(
                        server, sessionID: owner.sessionID, to: tokens, spending: unused, previousRefreshHash: hash,
                        previousRetries: attempt)
                else { return try reuse(server, owner) }
                try Audit.record(
                    server, kind: "refresh_retry", username: owner.username, sessionID: owner.sessionID,
                    familyID: owner.familyID)
                return .success(tokens)
            }
            // Not the current token of any session: it was rotated already.
            guard let current else { return try reuse(server, owner) }
            if try current.get("revoked_at", as: Int64?.self) != nil { return .failure(Problems.sessionRevoked) }
            if try current.get("refresh_expires_at", as: Int64.self) <= server.now {
                return .failure(Problems.tokenExpired)
            }
            // A child lives no longer than its parent (its own expiry, above, is the more precise answer).
            if try endIfParentGone(server, sessionID: owner.sessionID, username: owner.username) {
                return .failure(Problems.sessionRevoked)
            }
            let tokens = try IssuedTokens(server: server, sessionID: owner.sessionID)
            guard
                try rotate(
                    server, sessionID: owner.sessionID, to: tokens, spending: hash, previousRefreshHash: hash,
                    previousRetries: 0)
            else { return try reuse(server, owner) }
            return .success(tokens)
        }
        switch outcome {
        case .success(let tokens):
            return JSONBody.response(200, tokens.json(server.settings), headers: ["Cache-Control": "no-store"])
        case .failure(let problem):
            throw problem
        }
    }

    /// The ``ReferenceServer/lockKeys(_:)`` name of a session's decisions.
    static func sessionLockName(_ sessionID: String) -> String { "session\n" + sessionID }

    /// How many retries of one spent refresh token the reference server
    /// accepts: each is one more lost answer in a row, which at the chaos
    /// run's 15 % faults happens to two in a row about once in a thousand
    /// refreshes and to four in about a million.
    static let maxRefreshRetries = 3

    /// The current refresh token's hash when `hash` is the refresh token whose
    /// rotation made the session's current pair, that pair was never used,
    /// and `attempt` is a retry number not taken yet for it (higher than the
    /// last, at most ``maxRefreshRetries``), else nil: the answer to that
    /// rotation (or to the retry before) may have been lost on the way (a
    /// dropped connection, a client timeout), and only the client that sent
    /// it can ask again. The core contract (docs/protocol.md, "Reuse
    /// detection") calls any rotated token reuse; this exception needs the
    /// client to say `"retry": true`, the session's own key (checked before),
    /// an unrevoked, unexpired session, and a pair nobody has used, so a
    /// checker of the contract that presents an old token without it still
    /// sees reuse.
    static func lostRotation(_ server: ReferenceServer, sessionID: String, hash: String, attempt: Int) throws
        -> String?
    {
        guard
            let row = try server.db.query(
                """
                SELECT refresh_hash, previous_refresh_hash, previous_refresh_retries, pair_used_at, revoked_at,
                    refresh_expires_at
                FROM sessions WHERE id = ?
                """, [.text(sessionID)]
            ).first,
            try row.get("previous_refresh_hash", as: String?.self) == hash,
            attempt <= maxRefreshRetries, try row.get("previous_refresh_retries", as: Int64.self) < Int64(attempt),
            try row.get("pair_used_at", as: Int64?.self) == nil, try row.get("revoked_at", as: Int64?.self) == nil,
            try row.get("refresh_expires_at", as: Int64.self) > server.now
        else { return nil }
        return try row.get("refresh_hash", as: String.self)
    }

    /// The answer to a spent refresh token: the family ends, the reuse is audited.
    private static func reuse(_ server: ReferenceServer, _ owner: RefreshOwner) throws -> Result<
        IssuedTokens, HTTPProblem
    > {
        try revokeFamily(server, sessionID: owner.sessionID, reason: "refresh_reuse")
        try Audit.record(
            server, kind: "refresh_reuse", username: owner.username, sessionID: owner.sessionID,
            familyID: owner.familyID)
        return .failure(Problems.refreshReuse)
    }

    /// Replaces the session's pair. `spending`, the current refresh token,
    /// joins the used ones (presenting it later is reuse);
    /// `previousRefreshHash` is the token the client holds until it hears of
    /// the new pair, which may be retried (``lostRotation(_:sessionID:hash:attempt:)``)
    /// with a number above `previousRetries` (0 after an ordinary rotation,
    /// the retry's number after a retry).
    ///
    /// The update is conditional on `spending` still being the session's
    /// refresh token, so of two refreshes of one pair exactly one rotates,
    /// whichever server process runs them and however the database orders
    /// their transactions; the other sees reuse.
    /// - Returns: false when another rotation came first (nothing changed).
    private static func rotate(
        _ server: ReferenceServer, sessionID: String, to tokens: IssuedTokens, spending: String,
        previousRefreshHash: String, previousRetries: Int
    ) throws -> Bool {
        let rotated = try server.db.execute(
            """
            UPDATE sessions SET access_hash = ?, access_expires_at = ?, refresh_hash = ?, refresh_expires_at = ?,
                previous_refresh_hash = ?, previous_refresh_retries = ?, pair_used_at = NULL
            WHERE id = ? AND refresh_hash = ?
            """,
            [
                .text(try server.ids.hash(tokens.accessToken)),
                .integer(server.now + server.settings.accessTTLSeconds),
                .text(try server.ids.hash(tokens.refreshToken)),
                .integer(server.now + server.settings.refreshTTLSeconds),
                .text(previousRefreshHash), .integer(Int64(previousRetries)), .text(sessionID), .text(spending),
            ]
        ).changes
        guard rotated == 1 else { return false }
        try server.db.execute(
            "INSERT INTO used_refresh_tokens (refresh_hash, session_id, used_at) VALUES (?, ?, ?)",
            [.text(spending), .text(sessionID), .integer(server.now)])
        return true
    }

    static func createExtensionSession(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        let parent = try Authenticator.authenticate(server, context, tokenEndpoint: true)
        let body = try JSONBody.decode(ExtensionSessionRequest.self, from: context.body)
        guard body.clientComponent == "share_ext" || body.clientComponent == "notification_ext" else {
            throw Problems.badRequest("client_component must be \"share_ext\".")
        }
        guard parent.parentID == nil else {
            throw HTTPProblem(
                status: 403, code: "forbidden", title: "Forbidden",
                detail: "Only an app session can create extension sessions.")
        }
        let tokens = try server.db.transaction {
            // At most one active child per parent and component: the new one
            // replaces the old (creations for one parent take turns).
            try server.lockKeys([sessionLockName(parent.sessionID)])
            let previous = try server.db.query(
                "SELECT id FROM sessions WHERE parent_id = ? AND client_component = ? AND revoked_at IS NULL",
                [.text(parent.sessionID), .text(body.clientComponent)])
            for row in previous {
                let id = try row.get("id", as: String.self)
                try revoke(server, sessionID: id, username: parent.username, reason: "replaced")
            }
            return try createSession(
                server, username: parent.username, parentID: parent.sessionID, component: body.clientComponent,
                jkt: parent.jkt)
        }
        return JSONBody.response(201, tokens.json(server.settings), headers: ["Cache-Control": "no-store"])
    }

    static func logout(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        let session = try Authenticator.authenticate(server, context)
        try server.db.transaction {
            try revokeFamily(server, sessionID: session.sessionID, reason: "logout")
            try server.db.execute(
                "UPDATE push_registrations SET disabled_at = ? WHERE session_id = ? AND disabled_at IS NULL",
                [.integer(server.now), .text(session.sessionID)])
        }
        return HTTPResponse(status: 204)
    }

    /// listAudit: the caller's own records (every session and family of
    /// their user, and throttled logins of their username), never anyone
    /// else's.
    static func listAudit(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        let session = try Authenticator.authenticate(server, context)
        var sql = "SELECT kind, session_id, family_id, at FROM audit WHERE username = ?"
        var bindings: [SQLValue] = [.text(session.username)]
        if let kind = context.query("kind") {
            guard RequestContext.canMatchStored(kind) else { return JSONBody.response(200, AuditList(items: [])) }
            sql += " AND kind = ?"
            bindings.append(.text(kind))
        }
        let items = try server.db.query(sql + " ORDER BY seq", bindings).map { row in
            AuditRecord(
                kind: try row.get("kind"), sessionID: try row.get("session_id", as: String?.self),
                familyID: try row.get("family_id", as: String?.self), at: try row.get("at"))
        }
        return JSONBody.response(200, AuditList(items: items))
    }

    // MARK: Sessions

    struct RefreshOwner {
        let sessionID: String
        let familyID: String
        let username: String
        let jkt: String
    }

    /// The session a refresh token belongs to, whether it is the current one or an already rotated one.
    static func sessionForRefresh(_ server: ReferenceServer, hash: String) throws -> RefreshOwner? {
        let row =
            try server.db.query(
                "SELECT id, family_id, username, jkt FROM sessions WHERE refresh_hash = ?", [.text(hash)]
            ).first
            ?? server.db.query(
                """
                SELECT s.id, s.family_id, s.username, s.jkt FROM used_refresh_tokens u
                JOIN sessions s ON s.id = u.session_id
                WHERE u.refresh_hash = ?
                """, [.text(hash)]
            ).first
        guard let row else { return nil }
        return RefreshOwner(
            sessionID: try row.get("id"), familyID: try row.get("family_id"), username: try row.get("username"),
            jkt: try row.get("jkt"))
    }

    static func createSession(
        _ server: ReferenceServer, username: String, parentID: String?, component: String, jkt: String
    ) throws -> IssuedTokens {
        let id = server.ids.id("ses")
        let tokens = try IssuedTokens(server: server, sessionID: id)
        try server.db.execute(
            """
            INSERT INTO sessions (id, username, family_id, parent_id, client_component, jkt, access_hash,
                access_expires_at, refresh_hash, refresh_expires_at, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(id), .text(username), .text(id), parentID.map { .text($0) } ?? .null, .text(component),
                .text(jkt),
                .text(try server.ids.hash(tokens.accessToken)), .integer(server.now + server.settings.accessTTLSeconds),
                .text(try server.ids.hash(tokens.refreshToken)),
                .integer(server.now + server.settings.refreshTTLSeconds),
                .integer(server.now),
            ])
        return tokens
    }

    /// Revokes a session's family and, for a parent, its children.
    static func revokeFamily(_ server: ReferenceServer, sessionID: String, reason: String) throws {
        guard let row = try server.db.query("SELECT username FROM sessions WHERE id = ?", [.text(sessionID)]).first
        else {
            return
        }
        let username = try row.get("username", as: String.self)
        try revoke(server, sessionID: sessionID, username: username, reason: reason)
        for child in try server.db.query(
            "SELECT id FROM sessions WHERE parent_id = ? AND revoked_at IS NULL", [.text(sessionID)])
        {
            try revoke(server, sessionID: try child.get("id"), username: username, reason: reason)
        }
    }

    /// Whether `sessionID` is a child whose parent is gone (revoked, or its
    /// refresh token expired): a child lives no longer than its parent. Such
    /// a child is revoked here (reason `parent_ended`, with its
    /// `session.revoked` event), so it stays revoked.
    /// - Returns: true when the session is such a child.
    static func endIfParentGone(_ server: ReferenceServer, sessionID: String, username: String) throws -> Bool {
        guard
            let parent = try server.db.query(
                """
                SELECT p.revoked_at, p.refresh_expires_at FROM sessions c JOIN sessions p ON p.id = c.parent_id
                WHERE c.id = ?
                """, [.text(sessionID)]
            ).first
        else { return false }
        let gone =
            try parent.get("revoked_at", as: Int64?.self) != nil
            || parent.get("refresh_expires_at", as: Int64.self) <= server.now
        if gone { try revoke(server, sessionID: sessionID, username: username, reason: "parent_ended") }
        return gone
    }

    static func revoke(_ server: ReferenceServer, sessionID: String, username: String, reason: String) throws {
        let changed = try server.db.execute(
            "UPDATE sessions SET revoked_at = ?, revoked_reason = ? WHERE id = ? AND revoked_at IS NULL",
            [.integer(server.now), .text(reason), .text(sessionID)]
        ).changes
        if changed > 0 { try server.emit("session.revoked", to: username, fields: ["session_id": .string(sessionID)]) }
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in 0..<a.count { difference |= a[i] ^ b[i] }
        return difference == 0
    }
}

/// A new access and refresh token pair.
struct IssuedTokens {
    let sessionID: String
    let accessToken: String
    let refreshToken: String

    init(server: ReferenceServer, sessionID: String) throws {
        self.sessionID = sessionID
        accessToken = try server.ids.token()
        refreshToken = try server.ids.token()
    }

    func json(_ settings: InstanceSettings) -> TokenPair {
        TokenPair(
            sessionID: sessionID, accessToken: accessToken, refreshToken: refreshToken,
            expiresIn: Int64(settings.accessTTLSeconds), refreshExpiresIn: Int64(settings.refreshTTLSeconds))
    }
}
