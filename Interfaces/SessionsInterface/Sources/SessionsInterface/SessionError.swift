/// Why no access token could be handed out.
///
/// The cases say what a sender does next: ``unavailable(_:)`` turns a
/// send into a share inbox entry and asks for a new session;
/// ``retryable(_:)`` keeps the session and tries later. Messages never
/// contain a token: they name the family, the status and the server's
/// problem code.
public enum SessionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// "Session unavailable": the session cannot be used any more and its
    /// tokens were deleted (or never existed).
    case unavailable(SessionUnavailableReason)
    /// A refresh was needed and failed for a passing reason (no network, a
    /// timeout, a `5xx`, a `429`, the DPoP nonce dance failing twice); the
    /// stored tokens are kept. The text says what happened.
    case retryable(String)
    /// The caller's task was cancelled before a token was available.
    case cancelled
    /// Anything else: the keychain or the lock failed, or the server gave
    /// an answer that fits no rule (an unexpected status, an unreadable
    /// token response). The text says what happened.
    case failed(String)

    /// Whether trying again later, with the same stored session, may succeed.
    public var isRetryable: Bool {
        if case .retryable = self { return true }
        return false
    }

    /// The text of ``retryable(_:)`` or ``failed(_:)`` made of a person's
    /// words and the technical detail (the operation, the transport's
    /// words): `summary [detail]`. ``summary`` gives the person's words back.
    /// - Parameters:
    ///   - summary: what happened, in a person's words (no ` [`).
    ///   - detail: the operation and the transport's words, for logs.
    public static func message(_ summary: String, detail: String) -> String {
        "\(summary) [\(detail)]"
    }

    /// What happened in a person's words: the text without the technical
    /// detail that ``message(_:detail:)`` put after it.
    public var summary: String {
        func words(_ text: String) -> String {
            text.firstRange(of: " [").map { String(text[..<$0.lowerBound]) } ?? text
        }
        switch self {
        case .unavailable(let reason): return "session unavailable: \(reason)"
        case .retryable(let why), .failed(let why): return words(why)
        case .cancelled: return "cancelled while waiting for the session"
        }
    }

    /// A message for a person, with the technical detail (logs, `--verbose`).
    public var description: String {
        switch self {
        case .unavailable(let reason): return "session unavailable: \(reason)"
        case .retryable(let why): return "the session could not be refreshed now, try again later: \(why)"
        case .cancelled: return "cancelled while waiting for the session"
        case .failed(let why): return "session error: \(why)"
        }
    }
}
