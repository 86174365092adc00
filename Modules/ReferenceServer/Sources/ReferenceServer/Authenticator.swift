import ShareKitDPoPInterface
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitSQLInterface
import ShareKitWireContract

/// DPoP-bound authentication (docs/protocol.md, "DPoP" and "Sessions and families").
///
/// Token endpoints (login, refresh, extension sessions) answer a missing
/// nonce with `400 {"error": "use_dpop_nonce"}`; resource endpoints with
/// `401` and `WWW-Authenticate: DPoP error="use_dpop_nonce"`. Both carry the
/// new nonce in `DPoP-Nonce`.
enum Authenticator {
    /// Verifies the request's proof, optionally bound to a session's key and token.
    /// - Returns: the verified proof.
    /// - Throws: ``ProblemResponse`` with the right challenge when the proof
    ///   is refused; `SQLError` when its `jti` cannot be recorded.
    /// - Parameter replay: when given, the `jti` is not recorded now but
    ///   held there for the route's transaction (``PendingReplayRecord``).
    static func verifyProof(
        _ server: ReferenceServer, _ context: RequestContext, accessToken: String?, boundThumbprint: String?,
        tokenEndpoint: Bool, replay: PendingReplayRecord? = nil
    ) throws -> DPoPVerifiedProof {
        let proofs = context.head.headers.values(for: "DPoP")
        guard proofs.count == 1, let proof = proofs.first else {
            throw challenge(
                server, code: "invalid_dpop_proof",
                detail: proofs.isEmpty
                    ? "The request needs one DPoP header." : "The request has more than one DPoP header.",
                tokenEndpoint: tokenEndpoint, nonce: nil)
        }
        let input = DPoPVerificationInput(
            proof: proof, method: context.head.method.rawValue, url: server.publicOrigin + context.head.path,
            accessToken: accessToken, boundThumbprint: boundThumbprint, nonce: try server.nonceRequirement())
        // The `jti` is always held back from the verifier and written here
        // (or in the route's transaction): a database that cannot take it,
        // full or locked, then answers as what it is (`507`, `503`), where
        // the verifier would turn its error into a refused proof.
        let record = replay ?? PendingReplayRecord()
        let verified: DPoPVerifiedProof
        do {
            verified = try record.collect { () throws(DPoPError) in try server.verifier.verify(input) }
        } catch {
            throw challenge(
                server, code: error.oauthErrorCode ?? "invalid_dpop_proof", detail: error.description,
                tokenEndpoint: tokenEndpoint, nonce: error.nonceToSend)
        }
        if replay == nil { try record.recordNow(server, tokenEndpoint: tokenEndpoint) }
        return verified
    }

    /// Authenticates a resource request: `Authorization: DPoP <token>` of a
    /// live session plus a proof bound to its key and token.
    /// - Parameter replay: where the proof's `jti` record is held for the
    ///   route's transaction; nil records it at once.
    /// - Returns: the session.
    /// - Throws: a 401 problem naming why (`invalid_token`, `session_revoked`,
    ///   `token_expired`, `invalid_dpop_proof`, `use_dpop_nonce`).
    static func authenticate(
        _ server: ReferenceServer, _ context: RequestContext, tokenEndpoint: Bool = false,
        replay: PendingReplayRecord? = nil
    ) throws -> AuthenticatedSession {
        guard let authorization = context.head.headers["Authorization"] else {
            throw ProblemResponse(
                response: Problems.invalidToken("The request needs Authorization: DPoP <access token>.").response(
                    headers: ["WWW-Authenticate": "DPoP algs=\"ES256\""]))
        }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "dpop" else {
            throw ProblemResponse(
                response: Problems.invalidToken("Use the DPoP authorization scheme, not Bearer.").response(
                    headers: ["WWW-Authenticate": "DPoP algs=\"ES256\""]))
        }
        let token = String(parts[1])
        guard
            let row = try server.db.query(
                """
                SELECT id, username, family_id, parent_id, client_component, jkt, access_expires_at, revoked_at,
                    pair_used_at
                FROM sessions WHERE access_hash = ?
                """, [.text(try server.ids.hash(token))]
            ).first
        else {
            throw ProblemResponse(
                response: Problems.invalidToken("The access token is not known.").response(
                    headers: ["WWW-Authenticate": "DPoP error=\"invalid_token\""]))
        }
        if try row.get("revoked_at", as: Int64?.self) != nil {
            throw ProblemResponse(
                response: Problems.sessionRevoked.response(headers: ["WWW-Authenticate": "DPoP error=\"invalid_token\""]
                ))
        }
        if try row.get("access_expires_at", as: Int64.self) <= server.now {
            throw ProblemResponse(
                response: Problems.tokenExpired.response(headers: ["WWW-Authenticate": "DPoP error=\"invalid_token\""]))
        }
        if try row.get("parent_id", as: String?.self) != nil,
            try AuthRoutes.endIfParentGone(
                server, sessionID: try row.get("id", as: String.self),
                username: try row.get("username", as: String.self))
        {
            throw ProblemResponse(
                response: Problems.sessionRevoked.response(headers: ["WWW-Authenticate": "DPoP error=\"invalid_token\""]
                ))
        }
        let jkt = try row.get("jkt", as: String.self)
        _ = try verifyProof(
            server, context, accessToken: token, boundThumbprint: jkt, tokenEndpoint: tokenEndpoint, replay: replay)
        if try row.get("pair_used_at", as: Int64?.self) == nil {
            // The pair's answer reached its client: from now on a retried
            // refresh of the token before it is reuse (AuthRoutes.refresh).
            try server.db.execute(
                "UPDATE sessions SET pair_used_at = ? WHERE id = ? AND pair_used_at IS NULL",
                [.integer(server.now), .text(try row.get("id", as: String.self))])
        }
        return AuthenticatedSession(
            sessionID: try row.get("id"), username: try row.get("username"), familyID: try row.get("family_id"),
            parentID: try row.get("parent_id", as: String?.self), clientComponent: try row.get("client_component"),
            jkt: jkt)
    }

    /// The answer to a refused proof.
    static func challenge(_ server: ReferenceServer, code: String, detail: String, tokenEndpoint: Bool, nonce: String?)
        -> ProblemResponse
    {
        var headers: HTTPFields = [:]
        if let nonce { headers.set("DPoP-Nonce", nonce) }
        if tokenEndpoint {
            // RFC 9449 section 8: token endpoints answer with an OAuth error body.
            var response = JSONBody.response(
                400, OAuthErrorBody(error: code, errorDescription: detail), headers: headers)
            response.headers.set("Cache-Control", "no-store")
            return ProblemResponse(response: response)
        }
        headers.set("WWW-Authenticate", "DPoP error=\"\(code)\", algs=\"ES256\"")
        let problem = HTTPProblem(
            status: 401, code: code,
            title: code == "use_dpop_nonce" ? "A DPoP nonce is required" : "Invalid DPoP proof",
            detail: detail)
        return ProblemResponse(response: problem.response(headers: headers))
    }
}
