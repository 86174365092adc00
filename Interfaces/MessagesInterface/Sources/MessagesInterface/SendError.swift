/// Why a send failed for now; sending the same share again later may work.
public enum RetryReason: Hashable, Sendable, CustomStringConvertible {
    /// The server could not be reached (no network, unknown host, connection refused or lost).
    case noNetwork(String)
    /// A request took too long.
    case timeout(String)
    /// The server failed (`5xx`, `408`), and how long it asked to wait
    /// (`Retry-After`, seconds, at most an hour) when it said.
    case serverError(status: Int, code: String, retryAfterSeconds: Int? = nil)
    /// `429`: the server asks to wait, `Retry-After` seconds when it said.
    case rateLimited(retryAfterSeconds: Int?)
    /// No usable session (signed out, revoked, refresh impossible now).
    case sessionUnavailable(String)
    /// An upload ran out of its time budget and can be resumed elsewhere.
    case handedOff(uploadID: String?)
    /// An upload failed for a passing reason.
    case uploadInterrupted(String)

    /// How long the server asked to wait before the next attempt, in
    /// seconds, when it said (`429` or `5xx` with `Retry-After`).
    public var retryAfterSeconds: Int? {
        switch self {
        case .rateLimited(let seconds), .serverError(_, _, let seconds): return seconds
        default: return nil
        }
    }

    /// The server's wait in words; a wait at the cap says so, because the
    /// server may have asked for more (a hostile or broken `Retry-After`).
    private static func wait(_ seconds: Int) -> String {
        seconds >= 3600
            ? "it asked to wait \(seconds) seconds or more (waits are capped at an hour)"
            : "it asked to wait \(seconds) seconds"
    }

    /// A message for a person.
    public var description: String {
        switch self {
        case .noNetwork(let why): return "the server could not be reached (\(why))"
        case .timeout(let why): return "the server took too long to answer (\(why))"
        case .serverError(let status, let code, let seconds?):
            return "the server had a problem (\(status) \(code)); \(Self.wait(seconds))"
        case .serverError(let status, let code, nil): return "the server had a problem (\(status) \(code))"
        case .rateLimited(let seconds?): return "the server is busy; \(Self.wait(seconds))"
        case .rateLimited(nil): return "the server is busy"
        case .sessionUnavailable(let why): return "you are not signed in right now (\(why))"
        case .handedOff(let id?): return "the upload took too long here and will continue later (upload \(id))"
        case .handedOff(nil): return "the upload took too long here and will continue later"
        case .uploadInterrupted(let why): return "an upload was interrupted (\(why))"
        }
    }
}

/// How a send failed: ``retryable(_:)`` keeps the share to send later
/// (the inbox), ``rejected(code:message:)`` shows the reason and keeps
/// nothing, ``cancelled`` was asked for.
public enum SendError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No network, timeout, `5xx`, `429` (with `Retry-After`), session unavailable, upload handed off.
    case retryable(RetryReason)
    /// The server refused the share for good (`403 write_forbidden`, `413`,
    /// `415`, `422` such as `client_msg_id_conflict`, other `4xx`), or it
    /// breaks a limit checked before sending (`too_many_attachments`,
    /// `file_too_large`). `code` is the problem code; `message` is for a person.
    case rejected(code: String, message: String)
    /// The caller cancelled the send.
    case cancelled

    public var isRetryable: Bool {
        if case .retryable = self { return true }
        return false
    }

    /// The text to show a person.
    public var description: String {
        switch self {
        case .retryable(let reason): return "Not sent yet: \(reason). It will be sent again later."
        case .rejected(_, let message): return "Not sent: \(message)"
        case .cancelled: return "Sending was cancelled."
        }
    }
}
