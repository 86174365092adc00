/// Why an upload did not complete, classified by what the caller does next.
///
/// Messages are for people; they name the file, the limit and the server's
/// problem code, never a token.
public enum UploadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The server (or the client, checking the same limit before sending)
    /// refused the upload for good: `too_large` (`413`), `unsupported_type`
    /// (`415`), `digest_mismatch` (`422`) or another `4xx` code. Trying
    /// again unchanged fails again.
    case rejected(code: String, message: String)
    /// A passing failure (no network, a timeout, a cut connection, `5xx`,
    /// `429`, a session refresh that failed for such a reason) that outlasted
    /// the retries; the upload record is kept so a later attempt resumes.
    case retryable(String)
    /// The time budget ran out; the upload record is kept so the daemon can
    /// resume the upload (`uploadID` nil when it was not created yet).
    case handedOff(uploadID: String?)
    /// The caller cancelled; the server's upload was aborted.
    case cancelled
    /// There is no usable session (none, revoked, expired); the text says why.
    case sessionUnavailable(String)
    /// The file is not the version described (size or mtime differ, it
    /// changed while being read, or cannot be read); the text says how.
    case fileChanged(String)

    /// Whether a later attempt may succeed without anything changing.
    public var isRetryable: Bool {
        switch self {
        case .retryable, .handedOff: return true
        case .rejected, .cancelled, .sessionUnavailable, .fileChanged: return false
        }
    }

    /// A message for a person.
    public var description: String {
        switch self {
        case .rejected(let code, let message): return "the upload was refused (\(code)): \(message)"
        case .retryable(let why): return "the upload failed for now and can be retried: \(why)"
        case .handedOff(let id?): return "the upload took too long and was handed off (upload \(id))"
        case .handedOff(nil): return "the upload took too long and was handed off"
        case .cancelled: return "the upload was cancelled"
        case .sessionUnavailable(let why): return "no session to upload with: \(why)"
        case .fileChanged(let why): return "the file changed: \(why)"
        }
    }
}
