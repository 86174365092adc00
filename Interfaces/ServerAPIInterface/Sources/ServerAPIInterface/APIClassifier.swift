public import ShareKitHTTPInterface
public import ShareKitHTTPTypes

/// The one classification of the server's answers and of transport
/// failures, used by ``AuthorizedAPIClient`` implementations and by the
/// token endpoints (which cannot use an authorized client: they make the
/// tokens it uses).
public enum APIClassifier {
    /// The `401` problem codes after which a fresh token may succeed: the
    /// access token expired, the server does not know it (another process
    /// rotated the pair), or the session was revoked (the refresh then
    /// fails too and the session's tokens are deleted, so the caller learns
    /// at once that only a new session helps).
    public static let refreshCodes: Set<String> = ["token_expired", "invalid_token", "session_revoked"]

    /// What an answer means.
    /// - Parameters:
    ///   - status: the status.
    ///   - headers: the header fields (`Retry-After`).
    ///   - body: the body (a problem document for failures).
    ///   - operation: the operation's name, for messages.
    ///   - now: the current Unix time in seconds, for a `Retry-After` given as a date.
    /// - Returns: nil for a success (`2xx`), else the error: `401` is
    ///   ``APIError/sessionEnded(_:)``; `408`, `429`, `5xx` are
    ///   ``APIError/retryable(_:)`` with the capped `Retry-After`; every other
    ///   status is ``APIError/refused(_:)`` with the problem's code.
    public static func classify(status: Int, headers: HTTPFields, body: [UInt8], operation: String, now: Int64)
        -> APIError?
    {
        if (200...299).contains(status) { return nil }
        let problem = ProblemDocument(body: body, status: status)
        switch status {
        case 401:
            return .sessionEnded("\(operation): the server refused the session (\(problem.code))")
        case 408, 429, 500...599:
            let wait = headers["Retry-After"].flatMap { RetryAfter.parse($0, now: now) }
            return .retryable(
                APIRetry(
                    kind: .status(status, code: problem.code),
                    message: "\(operation) answered \(status) \(problem.code)", retryAfter: wait))
        default:
            return .refused(
                APIRefusal(
                    operation: operation, status: status, code: problem.code, message: problem.message, body: body))
        }
    }

    /// What a transport failure means: a passing one (no network, a
    /// timeout, a cut connection, a malformed answer) is retryable;
    /// cancellation is ``APIError/cancelled``; the rest cannot be helped by
    /// trying again.
    /// - Parameters:
    ///   - error: the transport's error.
    ///   - operation: the operation's name, for messages.
    /// - Returns: the error.
    public static func classify(_ error: HTTPClientError, operation: String) -> APIError {
        switch error {
        case .cancelled:
            return .cancelled
        case .timedOut:
            return .retryable(APIRetry(kind: .timeout, message: "\(operation): \(error)"))
        case .hostNotFound, .cannotConnect, .connectionLost, .protocolError, .transportFailure:
            return .retryable(APIRetry(kind: .network, message: "\(operation): \(error)"))
        case .invalidURL, .invalidRequest, .tlsFailure, .fileUnreadable, .fileChanged, .tooManyRedirects,
            .responseTooLarge, .signingFailed:
            return .failed(error)
        }
    }
}
