import Foundation

/// Why the reference server refused or failed something that is not a
/// request's answer (those are ``ShareKitHTTPServerInterface/HTTPProblem``s): a
/// seed file, an administrative change, a file system call on upload
/// parts. Its description is the message for a person (the command line)
/// or for the request log.
public enum ReferenceServerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The seed is not valid; the text names the member. Nothing was written.
    case invalidSeed(String)
    /// An administrative change named no user with this username; nothing was written.
    case unknownUser(String)
    /// An administrative change named no channel with this id; nothing was written.
    case unknownChannel(String)
    /// The user has no access row for the channel (was never a reader or
    /// writer there), so there is no write permission to take away.
    case noAccess(username: String, channelID: String)
    /// No session has this id; nothing was written.
    case unknownSession(String)
    /// A file system call on upload parts failed: the operation, the path
    /// and `errno`. The client gets a 500 (a 507 when ``isOutOfSpace``).
    case uploadFile(operation: String, path: String, errno: Int32)

    /// A message for a person or the request log: what is missing, or the
    /// operation, the path and the system's reason.
    public var description: String {
        switch self {
        case .invalidSeed(let why): return "invalid seed: \(why)"
        case .unknownUser(let username): return "no user \(username)"
        case .unknownChannel(let channelID): return "no channel \(channelID)"
        case .noAccess(let username, let channelID): return "\(username) has no access to channel \(channelID)"
        case .unknownSession(let sessionID): return "no session \(sessionID)"
        case .uploadFile(let operation, let path, let code):
            return "\(operation) \(path): \(String(cString: strerror(code)))"
        }
    }

    /// Whether a file system call failed because the file system is full
    /// (or the user's disk quota is): the client gets `507
    /// insufficient_storage` and may send the part again later.
    var isOutOfSpace: Bool {
        guard case .uploadFile(_, _, let code) = self else { return false }
        return code == ENOSPC || code == EDQUOT
    }
}
