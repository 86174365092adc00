/// An ``HTTPClient`` that proves possession of the device key on every
/// request with a DPoP proof (RFC 9449) and, when given one, presents a
/// DPoP-bound access token (`Authorization: DPoP <token>`).
///
/// This is what modules that call the server depend on: token endpoints
/// (login, refresh) send without a token through ``HTTPClient/send(_:options:)``,
/// resource calls pass the session's current access token. Implementations
/// follow the server's nonce (`DPoP-Nonce`): they repeat a request that was
/// refused with `use_dpop_nonce` once, with a fresh proof, and only when the
/// nonce changed; the caller sees the final response. They never follow
/// redirects, because a proof is bound to the URL it was made for.
public protocol DPoPSigningHTTPClient: HTTPClient {
    /// Sends one request signed with a proof that covers `accessToken`.
    /// - Parameters:
    ///   - request: what to send; `Authorization` and `DPoP` header fields
    ///     in it are replaced.
    ///   - accessToken: the DPoP-bound access token, or nil for a request
    ///     without one (token endpoints).
    ///   - options: timeouts, progress, cancellation and limits. Progress
    ///     never goes backwards when the request is repeated.
    /// - Returns: the final response (after the nonce repetition, if any).
    /// - Throws: ``HTTPClientError``; ``HTTPClientError/signingFailed(_:)``
    ///   when the proof cannot be made.
    func send(_ request: HTTPClientRequest, accessToken: String?, options: HTTPRequestOptions)
        async throws(HTTPClientError) -> HTTPClientResponse
}

extension DPoPSigningHTTPClient {
    /// Sends one request signed with a proof that covers `accessToken`, with the default options.
    /// - Parameters:
    ///   - request: what to send.
    ///   - accessToken: the DPoP-bound access token, or nil.
    /// - Returns: the final response.
    /// - Throws: ``HTTPClientError``.
    public func send(_ request: HTTPClientRequest, accessToken: String?) async throws(HTTPClientError)
        -> HTTPClientResponse
    {
        try await send(request, accessToken: accessToken, options: HTTPRequestOptions())
    }
}
