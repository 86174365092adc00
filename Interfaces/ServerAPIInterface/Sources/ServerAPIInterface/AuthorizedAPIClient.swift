import ShareKitHTTPInterface

/// The one way the client side talks to the server's API with a session:
/// every module that calls a resource endpoint (messages, uploads, targets,
/// push registration and previews, the event feed) sends through this.
///
/// One call does everything a resource request needs, in one place: it
/// takes the access token of the session it was made for, has the request
/// signed with a DPoP proof (the signing client repeats a request refused
/// with `use_dpop_nonce` once), refreshes the session once when the server
/// says the token is expired, unknown or revoked (`401` with
/// `token_expired`, `invalid_token` or `session_revoked`) and sends again,
/// and classifies whatever came back: a success is returned, every failure
/// is an ``APIError`` (retryable with the server's `Retry-After`, refused
/// with the problem's code, session ended, cancelled, or a request that
/// cannot be made).
///
/// Implementations are safe to use from many tasks at once.
public protocol AuthorizedAPIClient: Sendable {
    /// The server's origin (`scheme://host[:port]`) that request paths are relative to.
    var origin: String { get }

    /// Sends one request with the session and returns a successful (`2xx`) answer.
    /// - Parameters:
    ///   - request: the route, method and body.
    ///   - options: time limits, progress and cancellation of this call.
    /// - Returns: the answer, with its status, header fields and body.
    /// - Throws: ``APIError`` for every answer that is not a success and for
    ///   every request that did not get a complete answer.
    func send(_ request: APIRequest, options: APICallOptions) async throws(APIError) -> APIResponse
}

extension AuthorizedAPIClient {
    /// Sends one request with the default options.
    /// - Parameter request: the route, method and body.
    /// - Returns: the successful answer.
    /// - Throws: ``APIError``.
    public func send(_ request: APIRequest) async throws(APIError) -> APIResponse {
        try await send(request, options: APICallOptions())
    }

    /// Sends one request and decodes its successful answer as `Answer`.
    /// - Parameters:
    ///   - request: the route, method and body.
    ///   - answer: the type of the answer's JSON body.
    ///   - options: time limits, progress and cancellation of this call.
    /// - Returns: the decoded answer and the response it came in.
    /// - Throws: ``APIError``; ``APIError/retryable(_:)`` with
    ///   ``APIRetry/Kind/unreadableAnswer(status:)`` when a successful
    ///   answer's body is not the route's type.
    public func send<Answer: Decodable & Sendable>(
        _ request: APIRequest, decoding answer: Answer.Type, options: APICallOptions = APICallOptions()
    ) async throws(APIError) -> (value: Answer, response: APIResponse) {
        let response = try await send(request, options: options)
        return (try response.decode(Answer.self, operation: request.operation), response)
    }
}
