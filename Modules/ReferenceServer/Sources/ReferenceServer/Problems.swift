import ShareKitHTTPServerInterface
import ShareKitHTTPTypes

/// The problems (RFC 9457) the server answers with, each with the `code`
/// docs/protocol.md ("Errors") and docs/api/openapi.yaml name, so clients
/// act on codes and people read titles.
enum Problems {
    static func badRequest(_ detail: String, code: String = "bad_request") -> HTTPProblem {
        HTTPProblem(status: 400, code: code, title: "Bad request", detail: detail)
    }
    static func invalidToken(_ detail: String) -> HTTPProblem {
        HTTPProblem(status: 401, code: "invalid_token", title: "Missing or unknown access token", detail: detail)
    }
    static let sessionRevoked = HTTPProblem(
        status: 401, code: "session_revoked", title: "The session was revoked", detail: "Log in again.")
    static let tokenExpired = HTTPProblem(
        status: 401, code: "token_expired", title: "The token has expired", detail: "Refresh the session.")
    static let refreshReuse = HTTPProblem(
        status: 401, code: "refresh_reuse", title: "Refresh token reuse",
        detail: "A refresh token was presented twice; the session family is revoked.")
    static let invalidGrant = HTTPProblem(
        status: 401, code: "invalid_grant", title: "Unknown refresh token", detail: "Log in again.")
    static let invalidCredentials = HTTPProblem(
        status: 401, code: "invalid_credentials", title: "Wrong username or password")
    static func notFound(_ what: String) -> HTTPProblem {
        HTTPProblem(
            status: 404, code: "not_found", title: "Not found",
            detail: "\(what) does not exist or is not visible to you.")
    }
    static let writeForbidden = HTTPProblem(
        status: 403, code: "write_forbidden", title: "No write permission",
        detail: "You cannot write to this thread or channel.")
    static func tooLarge(_ detail: String) -> HTTPProblem {
        HTTPProblem(status: 413, code: "too_large", title: "Too large", detail: detail)
    }
    static func unsupportedType(_ type: String) -> HTTPProblem {
        HTTPProblem(
            status: 415, code: "unsupported_type", title: "Unsupported content type",
            detail: "This server does not accept \(type).")
    }
    static func unprocessable(_ code: String, _ detail: String) -> HTTPProblem {
        HTTPProblem(status: 422, code: code, title: "Unprocessable request", detail: detail)
    }
    static func conflict(_ code: String, _ detail: String) -> HTTPProblem {
        HTTPProblem(status: 409, code: code, title: "Conflict", detail: detail)
    }
    static func methodNotAllowed(_ allowed: [String]) -> HTTPProblem {
        HTTPProblem(
            status: 405, code: "method_not_allowed", title: "Method not allowed",
            detail: "Allowed: \(allowed.joined(separator: ", ")).")
    }
    /// Too many failed logins for this username from this address, or from this address.
    static func loginThrottled(retryAfterSeconds: Int64) -> HTTPProblem {
        HTTPProblem(
            status: 429, code: "login_throttled", title: "Too many failed logins",
            detail: "Too many failed logins; try again in \(retryAfterSeconds) s.")
    }
    /// createUpload would take the caller's unfinished uploads over the quota.
    static func uploadQuotaExceeded(_ detail: String) -> HTTPProblem {
        HTTPProblem(status: 429, code: "upload_quota_exceeded", title: "Upload quota exceeded", detail: detail)
    }
    /// The disk (or the database's file-size limit) is full; nothing of the request was kept.
    static let insufficientStorage = HTTPProblem(
        status: 507, code: "insufficient_storage", title: "Insufficient storage",
        detail: "The server's storage is full; nothing of this request was kept. Try again later.")
    static let routeNotFound = HTTPProblem(
        status: 404, code: "not_found", title: "Not found", detail: "No such route; see docs/api/openapi.yaml.")
}
