import HTTPInterface
public import ServerAPIInterface
public import ShareCore

/// What the API client's classification (``ServerAPIInterface/APIError``)
/// means for a share, in a person's words: each case has one reading, so
/// that nothing between the API client and the person classifies again.
/// The delivery engine reads a failed message request with these; an
/// upload's failure adds its file first (the engine).
extension APIError {
    /// Why the share is kept for a later attempt: a passing failure (no
    /// network, a timeout, `5xx`, `429` with its `Retry-After`, an answer
    /// that could not be read) or an ended session, which a new session
    /// (the daemon's, a login) helps; nil for a refusal, a request that
    /// cannot be made and a cancel.
    public var retryReason: RetryReason? {
        switch self {
        case .sessionEnded(let why):
            return .sessionUnavailable(why)
        case .retryable(let retry):
            switch retry.kind {
            case .network: return .noNetwork(retry.message)
            case .timeout: return .timeout(retry.message)
            case .session: return .sessionUnavailable(retry.message)
            case .budget(let uploadID): return .handedOff(uploadID: uploadID)
            case .unreadableAnswer(let status): return .serverError(status: status, code: "unreadable_answer")
            case .status(429, _): return .rateLimited(retryAfterSeconds: retry.retryAfterSeconds)
            case .status(let status, let code):
                return .serverError(status: status, code: code, retryAfterSeconds: retry.retryAfterSeconds)
            }
        case .refused, .failed, .cancelled:
            return nil
        }
    }

    /// The share refused for good: the problem code, and the reason in
    /// English as a manifest and the outbox keep it (the status's meaning
    /// for the share, then the server's words); nil unless the server
    /// refused or the request cannot be made.
    public var shareRefusal: (code: String, message: String)? {
        switch self {
        case .refused(let refusal):
            return (
                refusal.code,
                MessagesText.refusalMessage(status: refusal.status, code: refusal.code, detail: refusal.message)
            )
        case .failed(let transport):
            return (
                "request_failed",
                MessagesText.table.text(.requestFailed, ["reason": transport.summary], in: .english)
            )
        case .retryable, .sessionEnded, .cancelled:
            return nil
        }
    }

    /// What became of a send that failed so, in every language: "not sent
    /// yet" with the reason, "not sent" with the refusal, or cancelled.
    public var shareText: LocalizedText {
        let table = MessagesText.table
        if let reason = retryReason {
            return LocalizedText { table.text(.notSentYet, ["reason": reason.localizedText($0)], in: $0) }
        }
        if let (code, message) = shareRefusal {
            let reason = MessagesText.localizedRejection(code: code, message: message)
            return LocalizedText { table.text(.notSent, ["message": reason($0)], in: $0) }
        }
        return table.localized(.cancelled)
    }
}
