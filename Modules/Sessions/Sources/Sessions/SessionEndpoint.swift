import HTTPInterface
import HTTPTypes
import KeychainInterface
import ServerAPIInterface
import SessionsInterface
import WireContract

/// The token endpoints (docs/protocol.md, "Sessions and families") as the
/// session code needs them: login, refresh, createExtensionSession and logout.
///
/// They cannot go through the authorized API client, which takes its
/// tokens from the session code; they use the same body types and the same
/// problem reading (``ServerAPIInterface/ProblemDocument``).
///
/// Every call goes through the DPoP-signing client, so each carries a proof
/// of the device key the session is bound to; refresh and login carry no
/// access token. Request bodies hold secrets (a refresh token, a password),
/// so nothing here ever puts a body, a header value or a response body into
/// an error: only statuses, problem codes and transport messages.
struct SessionEndpoint: Sendable {
    let origin: String
    let client: any DPoPSigningHTTPClient
    let configuration: SessionConfiguration
    let clock: @Sendable () -> Int64

    /// `POST /auth/refresh {refresh_token}`, a proof and no access token;
    /// `"retry": true, "retry_attempt": n` when this token may have been
    /// sent before without an answer heard, n times before this one (an
    /// addition of this project's contract, docs/adr/0009).
    /// - Parameters:
    ///   - refreshToken: the pair's refresh token.
    ///   - retryAttempt: nil for a first attempt, else which retry this is (1 for the first).
    func refresh(_ refreshToken: SecretValue, retryAttempt: Int? = nil) async throws(SessionError)
        -> TokenCallOutcome
    {
        try await call(
            .refreshToken,
            json: RefreshBody(
                refreshToken: refreshToken.utf8String ?? "", retry: retryAttempt == nil ? nil : true,
                retryAttempt: retryAttempt),
            accessToken: nil)
    }

    /// `POST /auth/login {username, password, client_component: "app"}`.
    func login(username: String, password: SecretValue) async throws(SessionError) -> TokenCallOutcome {
        try await call(
            .login,
            json: LoginBody(
                username: username, password: password.utf8String ?? "",
                clientComponent: SessionRole.parent.clientComponent),
            accessToken: nil)
    }

    /// `POST /auth/extension-sessions {client_component: "share_ext"}` with the parent's access token.
    func createChild(parentToken: AccessToken) async throws(SessionError) -> TokenCallOutcome {
        try await call(
            .createExtensionSession, json: ExtensionSessionBody(clientComponent: SessionRole.child.clientComponent),
            accessToken: parentToken.plainText)
    }

    /// `POST /auth/logout` with the session's access token: the server
    /// revokes that session and its children and answers `204`.
    /// - Returns: the status and problem code of the answer.
    func logout(accessToken: AccessToken) async throws(SessionError) -> (status: Int, code: String?) {
        let response = try await post(.logout, json: [String: String](), accessToken: accessToken.plainText)
        return (response.status, Self.problemCode(response.body))
    }

    private func call<Body: Encodable>(_ route: Route, json: Body, accessToken: String?) async throws(SessionError)
        -> TokenCallOutcome
    {
        // Expiries count from before the request left, so they are never later than the server's.
        let sentAt = clock()
        let response = try await post(route, json: json, accessToken: accessToken)
        guard response.status == 200 || response.status == 201 else {
            return .refused(status: response.status, code: Self.problemCode(response.body))
        }
        guard let tokens = TokenResponse.decode(response.body, sentAt: sentAt) else {
            throw .failed(
                "the server's answer to \(route.pathBelowAPIBase) (\(response.status)) is not a token response")
        }
        return .issued(tokens)
    }

    /// Posts to a token route under the configured base path; messages name
    /// the route by its path below the base (`/auth/login`).
    private func post<Body: Encodable>(_ route: Route, json: Body, accessToken: String?) async throws(SessionError)
        -> HTTPClientResponse
    {
        let path = route.pathBelowAPIBase
        var headers = HTTPFields()
        headers.set("Content-Type", "application/json")
        headers.set("Accept", "application/json")
        let body: [UInt8]
        do {
            body = try APIJSON.encode(json)
        } catch {
            throw .failed("cannot encode the \(path) request")
        }
        let request = HTTPClientRequest(
            method: .post, url: origin + configuration.apiBasePath + path, headers: headers, body: .bytes(body))
        do {
            return try await client.send(
                request, accessToken: accessToken, options: HTTPRequestOptions(timeouts: configuration.timeouts))
        } catch {
            throw Self.error(for: error, path: path)
        }
    }

    /// The `code` of a problem document, or the `error` of an OAuth error
    /// (token endpoints answer nonce challenges that way).
    static func problemCode(_ body: [UInt8]) -> String? {
        let problem = ProblemDocument(body: body, status: 0)
        return problem.hasCode ? problem.code : nil
    }

    /// A transport failure as a session error: passing ones are retryable.
    static func error(for error: HTTPClientError, path: String) -> SessionError {
        switch error {
        case .cancelled: return .cancelled
        case _ where error.isRetryable:
            return .retryable(SessionError.message(error.summary, detail: "\(path): \(error)"))
        default: return .failed(SessionError.message(error.summary, detail: "\(path): \(error)"))
        }
    }

    /// A response that fits no endpoint-specific rule: `408`, `429`, `5xx`
    /// and a nonce the server kept asking for are passing; the rest is not.
    static func error(status: Int, code: String?, path: String) -> SessionError {
        let what = "\(path) answered \(status)" + (code.map { " \($0)" } ?? "")
        if code == "use_dpop_nonce" { return .retryable(what) }
        let meaning = APIClassifier.classify(status: status, headers: [:], body: [], operation: path, now: 0)
        if meaning?.isRetryable == true { return .retryable(what) }
        return .failed(what)
    }

    /// The session ends for these answers to a refresh: its tokens are deleted.
    static func unavailableReason(refreshStatus status: Int, code: String?) -> SessionUnavailableReason? {
        guard status == 401, let code else { return nil }
        switch code {
        case "session_revoked": return .revoked
        case "refresh_reuse": return .refreshReuse
        case "token_expired": return .refreshExpired
        case "invalid_grant": return .invalidGrant
        default: return nil
        }
    }
}
