/// A passing failure of a call: what happened, and how long the server
/// asked the client to wait.
public struct APIRetry: Hashable, Sendable, CustomStringConvertible {
    /// What kind of passing failure it was.
    public enum Kind: Hashable, Sendable {
        /// The server could not be reached or the connection broke.
        case network
        /// A time limit ended the request.
        case timeout
        /// The server answered `408`, `429` or `5xx`, with its problem code.
        case status(Int, code: String)
        /// A successful answer whose body is not the route's answer.
        case unreadableAnswer(status: Int)
        /// The session needed a refresh that failed for a passing reason.
        case session
        /// The caller's time budget ran out (a long upload): what the
        /// server holds is kept for a later attempt, `uploadID` when the
        /// upload was created.
        case budget(uploadID: String?)
    }

    /// What kind of failure.
    public var kind: Kind
    /// A message for a person (operation, status, problem code, the
    /// transport's words; never a token).
    public var message: String
    /// How long the server asked to wait (`Retry-After`), at most
    /// ``RetryAfter/maximum``; nil when it did not say.
    public var retryAfter: Duration?

    /// Makes a retry description.
    /// - Parameters:
    ///   - kind: what kind of failure.
    ///   - message: a message for a person.
    ///   - retryAfter: the server's wait, already capped.
    public init(kind: Kind, message: String, retryAfter: Duration? = nil) {
        self.kind = kind
        self.message = message
        self.retryAfter = retryAfter
    }

    /// The status, for a failure that came as an answer.
    public var status: Int? {
        switch kind {
        case .status(let status, _), .unreadableAnswer(let status): return status
        case .network, .timeout, .session, .budget: return nil
        }
    }

    /// ``retryAfter`` in whole seconds (rounded up), for stores and messages.
    public var retryAfterSeconds: Int? {
        guard let retryAfter else { return nil }
        let (seconds, attoseconds) = retryAfter.components
        return Int(seconds) + (attoseconds > 0 ? 1 : 0)
    }

    /// The message, with the server's requested wait when it gave one.
    public var description: String {
        guard let seconds = retryAfterSeconds else { return message }
        if let retryAfter, retryAfter >= RetryAfter.maximum {
            return "\(message); it asked to wait \(seconds) s or more (waits are capped at an hour)"
        }
        return "\(message); it asked to wait \(seconds) s"
    }
}
