import Foundation
import HTTPInterface
import HTTPTypes
import KeychainInterface
import SessionsInterface

/// The token endpoints of PROTOCOL.md ("Sessions and tokens") as the
/// session code needs them: login, refresh, createExtensionSession and logout.
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
    /// `"retry": true` when this token may have been sent before without an
    /// answer heard (an addition to PROTOCOL.md the reference server honours).
    func refresh(_ refreshToken: SecretValue, retry: Bool = false) async throws(SessionError) -> TokenCallOutcome {
        var body: [String: any Sendable] = ["refresh_token": refreshToken.utf8String ?? ""]
        if retry { body["retry"] = true }
        return try await call("/auth/refresh", json: body, accessToken: nil)
    }

    /// `POST /auth/login {username, password, client_component: "app"}`.
    func login(username: String, password: SecretValue) async throws(SessionError) -> TokenCallOutcome {
        try await call(
            "/auth/login",
            json: [
                "username": username, "password": password.utf8String ?? "",
                "client_component": SessionRole.parent.clientComponent,
            ],
            accessToken: nil)
    }

    /// `POST /auth/extension-sessions {client_component: "share_ext"}` with the parent's access token.
    func createChild(parentToken: AccessToken) async throws(SessionError) -> TokenCallOutcome {
        try await call(
            "/auth/extension-sessions", json: ["client_component": SessionRole.child.clientComponent],
            accessToken: parentToken.plainText)
    }

    /// `POST /auth/logout` with the session's access token: the server
    /// revokes that session and its children and answers `204`.
    /// - Returns: the status and problem code of the answer.
    func logout(accessToken: AccessToken) async throws(SessionError) -> (status: Int, code: String?) {
        let response = try await post("/auth/logout", json: [:], accessToken: accessToken.plainText)
        return (response.status, Self.problemCode(response.body))
    }

    private func call(_ path: String, json: [String: any Sendable], accessToken: String?) async throws(SessionError)
        -> TokenCallOutcome
    {
        // Expiries count from before the request left, so they are never later than the server's.
        let sentAt = clock()
        let response = try await post(path, json: json, accessToken: accessToken)
        guard response.status == 200 || response.status == 201 else {
            return .refused(status: response.status, code: Self.problemCode(response.body))
        }
        guard let tokens = TokenResponse.decode(response.body, sentAt: sentAt) else {
            throw .failed("the server's answer to \(path) (\(response.status)) is not a token response")
        }
        return .issued(tokens)
    }

    private func post(_ path: String, json: [String: any Sendable], accessToken: String?) async throws(SessionError)
        -> HTTPClientResponse
    {
        var headers = HTTPFields()
        headers.set("Content-Type", "application/json")
        headers.set("Accept", "application/json")
        let body: [UInt8]
        do {
            body = [UInt8](try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]))
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
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else { return nil }
        return object["code"] as? String ?? object["error"] as? String
    }

    /// A transport failure as a session error: passing ones are retryable.
    static func error(for error: HTTPClientError, path: String) -> SessionError {
        switch error {
        case .cancelled: return .cancelled
        case _ where error.isRetryable: return .retryable("\(path): \(error)")
        default: return .failed("\(path): \(error)")
        }
    }

    /// A response that fits no endpoint-specific rule: `408`, `429`, `5xx`
    /// and a nonce the server kept asking for are passing; the rest is not.
    static func error(status: Int, code: String?, path: String) -> SessionError {
        let what = "\(path) answered \(status)" + (code.map { " \($0)" } ?? "")
        if status == 408 || status == 429 || status >= 500 || code == "use_dpop_nonce" {
            return .retryable(what)
        }
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
