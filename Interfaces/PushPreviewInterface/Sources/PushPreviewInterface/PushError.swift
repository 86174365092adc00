/// Why something of push failed: a payload the notifier cannot read, a
/// registration call of the app (registerPush, unregisterPush,
/// submitClientMetrics), or a notification that could not be shown. One
/// type for all three, because every caller does the same with it: it
/// logs or says the description (member paths and program names, never a
/// token or a value of the payload) and tries again only when
/// ``isRetryable`` says so.
public enum PushError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The payload is not a JSON object.
    case notJSON
    /// A required member (`aps`, `b`, `b.v`, `b.nid`, `b.k`, `b.i`) is missing; the path names it.
    case missingMember(String)
    /// A member has the wrong type or is empty; the path names it.
    case invalidMember(String)
    /// The payload is longer than the limit (bytes, ``PushPayload/maximumSize``).
    case tooLarge(limit: Int)
    /// A registration call failed: the message (never a token), and
    /// whether trying again later may work (no network, the session not
    /// usable now).
    case registration(String, retryable: Bool)
    /// A notification could not be shown or its link opened: the program
    /// could not be started, or it failed. The message names the program.
    case notShown(String)

    /// A failed registration call.
    /// - Parameters:
    ///   - isRetryable: whether trying again later may work.
    ///   - description: a message for a person, never a token.
    public init(isRetryable: Bool, description: String) {
        self = .registration(description, retryable: isRetryable)
    }

    /// Whether trying again later may work: only a registration call that
    /// met no network or a session not usable now. A payload stays
    /// unreadable and a failed program is not run again for the same push.
    public var isRetryable: Bool {
        guard case .registration(_, let retryable) = self else { return false }
        return retryable
    }

    /// A message for a person (member paths only, never values; never a token).
    public var description: String {
        switch self {
        case .notJSON: return "the push payload is not a JSON object"
        case .missingMember(let path): return "the push payload has no \(path)"
        case .invalidMember(let path): return "the push payload's \(path) has the wrong type or is empty"
        case .tooLarge(let limit): return "the push payload is larger than \(limit / 1024) KiB"
        case .registration(let message, _), .notShown(let message): return message
        }
    }
}
