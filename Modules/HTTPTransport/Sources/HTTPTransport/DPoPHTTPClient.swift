public import ShareKitDPoPInterface
public import ShareKitHTTPInterface
import ShareKitHTTPTypes

/// Signs every request with DPoP (RFC 9449) on top of any
/// ``ShareKitHTTPInterface/HTTPClient``: a fresh proof per request (`htm`, `htu`, the
/// origin's latest nonce, and `ath` when an access token is sent), the token
/// as `Authorization: DPoP <token>`, and the server's nonce followed.
///
/// Every response's `DPoP-Nonce` is stored through the nonce handling. A
/// response that asks for a nonce (`400 {"error":"use_dpop_nonce"}` from a
/// token endpoint, `401` with `WWW-Authenticate: DPoP error="use_dpop_nonce"`
/// from a resource) is answered by sending the request once more with a new
/// proof, and only when the server's nonce changed; otherwise, and after the
/// repetition, the caller gets the response as it is. The repetition sends
/// the same bytes: a file-region body is a description that the inner client
/// opens again. Redirects are never followed, because a proof is bound to
/// the URL it was made for.
///
/// ```swift
/// let signed = DPoPHTTPClient(
///     client: try CurlHTTPClient(), signer: try deviceKeys.proofSigner(),
///     nonces: DPoPNonceHandler(cache: SharedStateNonceCache(state: container.state)))
/// let login = try await signed.send(loginRequest)                  // proof only
/// let spaces = try await signed.send(spacesRequest, accessToken: token)  // proof with ath, and the token
/// ```
public struct DPoPHTTPClient: DPoPSigningHTTPClient {
    private let client: any HTTPClient
    private let signer: any DPoPProofSigner
    private let nonces: any DPoPNonceHandling

    /// Makes a signing client.
    /// - Parameters:
    ///   - client: the client that sends the signed requests.
    ///   - signer: makes proofs with the device key.
    ///   - nonces: the nonce memory and the rules for repeating.
    public init(client: any HTTPClient, signer: any DPoPProofSigner, nonces: any DPoPNonceHandling) {
        self.client = client
        self.signer = signer
        self.nonces = nonces
    }

    /// Sends a request with a proof and no access token (token endpoints).
    /// - Parameters:
    ///   - request: what to send.
    ///   - options: time limits, progress, cancellation, limits.
    /// - Returns: the final response.
    /// - Throws: ``ShareKitHTTPInterface/HTTPClientError``.
    public func send(_ request: HTTPClientRequest, options: HTTPRequestOptions) async throws(HTTPClientError)
        -> HTTPClientResponse
    {
        try await send(request, accessToken: nil, options: options)
    }

    /// Sends a request with a proof and, when given, an access token.
    /// - Parameters:
    ///   - request: what to send; its `Authorization` and `DPoP` fields are replaced.
    ///   - accessToken: the DPoP-bound access token, or nil.
    ///   - options: time limits, progress, cancellation, limits; redirects are not followed.
    /// - Returns: the final response.
    /// - Throws: ``ShareKitHTTPInterface/HTTPClientError``; ``ShareKitHTTPInterface/HTTPClientError/signingFailed(_:)``
    ///   when no proof can be made.
    public func send(_ request: HTTPClientRequest, accessToken: String?, options: HTTPRequestOptions)
        async throws(HTTPClientError) -> HTTPClientResponse
    {
        var options = options
        options.redirectLimit = 0
        let progress = options.progress.map(AttemptProgress.init)
        if let progress { options.progress = { progress.attemptReported($0) } }

        // The nonce cache is a memory, not a source of truth: when it cannot
        // be read the request goes without a nonce, and a server that wants
        // one says so and gets the repetition.
        let firstNonce = (try? nonces.nonce(for: request.url)) ?? nil
        var response = try await attempt(request, accessToken: accessToken, nonce: firstNonce, options: options)
        if case .retry(let nonce) = decision(for: response, url: request.url, sentNonce: firstNonce, isRetry: false) {
            response = try await attempt(request, accessToken: accessToken, nonce: nonce, options: options)
            // Stores the repetition's nonce; a second challenge is the caller's answer.
            _ = decision(for: response, url: request.url, sentNonce: nonce, isRetry: true)
        }
        progress?.finished()
        return response
    }

    private func attempt(
        _ request: HTTPClientRequest, accessToken: String?, nonce: String?, options: HTTPRequestOptions
    ) async throws(HTTPClientError) -> HTTPClientResponse {
        let proof: String
        do {
            proof = try signer.makeProof(
                method: request.method.rawValue, url: request.url, accessToken: accessToken, nonce: nonce)
        } catch {
            throw Self.mapped(error)
        }
        var signed = request
        signed.headers.set("DPoP", proof)
        if let accessToken {
            signed.headers.set("Authorization", "DPoP " + accessToken)
        } else {
            signed.headers.remove("Authorization")
        }
        return try await client.send(signed, options: options)
    }

    /// Stores the response's nonce and decides on a repetition. A nonce that
    /// cannot be stored is no reason to lose a response the server already
    /// acted on, so a store failure counts as "proceed".
    private func decision(for response: HTTPClientResponse, url: String, sentNonce: String?, isRetry: Bool)
        -> DPoPNonceDecision
    {
        var headers: [String: String] = [:]
        for field in response.headers {
            // Repeated fields joined with commas, the form RFC 9110 section 5.3 allows.
            let key = field.name.lowercased()
            headers[key] = headers[key].map { $0 + ", " + field.value } ?? field.value
        }
        let decision = try? nonces.evaluate(
            status: response.status, headers: headers, body: response.body, url: url, sentNonce: sentNonce,
            isRetry: isRetry)
        return decision ?? .proceed
    }

    private static func mapped(_ error: DPoPError) -> HTTPClientError {
        switch error {
        case .invalidURL(let why): return .invalidURL(why)
        case .invalidMethod: return .invalidRequest("the method is not a valid HTTP token")
        default: return .signingFailed(error.description)
        }
    }
}
