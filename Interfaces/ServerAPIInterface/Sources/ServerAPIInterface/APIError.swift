public import ShareKitHTTPInterface

/// Why a call of the server's API did not succeed, in the four ways a
/// caller acts on: try again later (``retryable(_:)``), give up and say why
/// (``refused(_:)``), get a new session (``sessionEnded(_:)``), or stop
/// (``cancelled``); plus a request that cannot be made at all (``failed(_:)``).
///
/// Messages name the operation, the status and the server's problem code,
/// never a token, a proof or a body.
public enum APIError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Trying the same call again later may succeed: no network, a timeout,
    /// a cut connection, `408`, `429`, `5xx`, a session that could not be
    /// refreshed for a passing reason, an unreadable successful answer.
    case retryable(APIRetry)
    /// The server refused the call (a `4xx` other than `401`, `408` and
    /// `429`): trying again unchanged would be refused again.
    case refused(APIRefusal)
    /// There is no usable session: none stored, or the server still refused
    /// it after one refresh. Only a new session helps; the text says why.
    case sessionEnded(String)
    /// The caller cancelled the call.
    case cancelled
    /// The request cannot be made and trying again will not help (an
    /// invalid URL, an untrusted certificate, an unreadable or changed body
    /// file, an answer over the size limit, a proof that cannot be signed).
    case failed(HTTPClientError)

    /// Whether trying the same call again later may succeed without a change.
    public var isRetryable: Bool {
        if case .retryable = self { return true }
        return false
    }

    /// The status of a refusal, nil for every other case.
    public var refusedStatus: Int? {
        if case .refused(let refusal) = self { return refusal.status }
        return nil
    }

    /// What happened, in a person's words: without the operation's name
    /// and the transport's words, which ``description`` keeps for logs.
    public var summary: String {
        switch self {
        case .retryable(let retry):
            switch retry.kind {
            case .network: return "the server could not be reached"
            case .timeout: return "the server did not answer in time"
            case .status(429, _): return "the server is busy"
            case .status(let status, _): return "the server had a problem (\(status))"
            case .unreadableAnswer: return "the server's answer could not be read"
            case .session: return "no session could be used right now"
            case .budget: return "it took longer than its time budget"
            }
        case .refused(let refusal): return "the server refused it (\(refusal.status)): \(refusal.message)"
        case .sessionEnded: return "you are not signed in; run share login"
        case .cancelled: return "cancelled"
        case .failed(let error): return error.summary
        }
    }

    /// A message with the operation and the transport's words (logs, `--verbose`).
    public var description: String {
        switch self {
        case .retryable(let retry): return retry.description
        case .refused(let refusal): return refusal.description
        case .sessionEnded(let why): return "no usable session: \(why)"
        case .cancelled: return "cancelled"
        case .failed(let error): return "the request could not be made: \(error)"
        }
    }
}
