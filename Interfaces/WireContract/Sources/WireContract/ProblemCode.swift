/// A problem's machine-readable `code` (RFC 9457 problem details with the
/// contract's `code` member, docs/protocol.md "Errors").
///
/// A struct rather than an enum: a client must treat a code it does not
/// know by its status, so any text decodes; ``known`` lists the codes of
/// this contract.
public struct ProblemCode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The code as sent, e.g. `write_forbidden`.
    public let rawValue: String

    /// Wraps a code.
    /// - Parameter rawValue: the code as sent.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Decodes a code from a JSON string.
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` when the value is not a string.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the code as a JSON string.
    /// - Parameter encoder: the encoder.
    /// - Throws: what the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The code.
    public var description: String { rawValue }

    /// `bad_request` (400).
    public static let badRequest = ProblemCode(rawValue: "bad_request")
    /// `invalid_json` (400): the body is not the JSON the operation takes.
    public static let invalidJSON = ProblemCode(rawValue: "invalid_json")
    /// `invalid_client_msg_id` (400).
    public static let invalidClientMsgID = ProblemCode(rawValue: "invalid_client_msg_id")
    /// `invalid_digest` (400): a `Content-Digest` or `sha256` that is not one.
    public static let invalidDigest = ProblemCode(rawValue: "invalid_digest")
    /// `invalid_file_name` (400).
    public static let invalidFileName = ProblemCode(rawValue: "invalid_file_name")
    /// `invalid_part` (400): a part number out of range.
    public static let invalidPart = ProblemCode(rawValue: "invalid_part")
    /// `invalid_dpop_proof` (400 on token endpoints, 401 elsewhere).
    public static let invalidDPoPProof = ProblemCode(rawValue: "invalid_dpop_proof")
    /// `use_dpop_nonce` (400 on token endpoints, 401 elsewhere).
    public static let useDPoPNonce = ProblemCode(rawValue: "use_dpop_nonce")
    /// `invalid_token` (401).
    public static let invalidToken = ProblemCode(rawValue: "invalid_token")
    /// `session_revoked` (401).
    public static let sessionRevoked = ProblemCode(rawValue: "session_revoked")
    /// `token_expired` (401).
    public static let tokenExpired = ProblemCode(rawValue: "token_expired")
    /// `refresh_reuse` (401): a refresh token presented twice.
    public static let refreshReuse = ProblemCode(rawValue: "refresh_reuse")
    /// `invalid_grant` (401): an unknown refresh token.
    public static let invalidGrant = ProblemCode(rawValue: "invalid_grant")
    /// `invalid_credentials` (401).
    public static let invalidCredentials = ProblemCode(rawValue: "invalid_credentials")
    /// `forbidden` (403).
    public static let forbidden = ProblemCode(rawValue: "forbidden")
    /// `write_forbidden` (403).
    public static let writeForbidden = ProblemCode(rawValue: "write_forbidden")
    /// `preview_disabled` (403).
    public static let previewDisabled = ProblemCode(rawValue: "preview_disabled")
    /// `not_found` (404).
    public static let notFound = ProblemCode(rawValue: "not_found")
    /// `method_not_allowed` (405), for any path of the contract.
    public static let methodNotAllowed = ProblemCode(rawValue: "method_not_allowed")
    /// `upload_attached` (409).
    public static let uploadAttached = ProblemCode(rawValue: "upload_attached")
    /// `upload_not_pending` (409).
    public static let uploadNotPending = ProblemCode(rawValue: "upload_not_pending")
    /// `upload_expired` (404 or 409, see the operation).
    public static let uploadExpired = ProblemCode(rawValue: "upload_expired")
    /// `body_too_large` (413): a JSON body over the server's limit.
    public static let bodyTooLarge = ProblemCode(rawValue: "body_too_large")
    /// `too_large` (413): an upload over `file_max_upload_bytes`.
    public static let tooLarge = ProblemCode(rawValue: "too_large")
    /// `unsupported_type` (415).
    public static let unsupportedType = ProblemCode(rawValue: "unsupported_type")
    /// `client_msg_id_conflict` (422).
    public static let clientMsgIDConflict = ProblemCode(rawValue: "client_msg_id_conflict")
    /// `empty_message` (422).
    public static let emptyMessage = ProblemCode(rawValue: "empty_message")
    /// `text_too_long` (422).
    public static let textTooLong = ProblemCode(rawValue: "text_too_long")
    /// `too_many_attachments` (422).
    public static let tooManyAttachments = ProblemCode(rawValue: "too_many_attachments")
    /// `invalid_attachment` (422).
    public static let invalidAttachment = ProblemCode(rawValue: "invalid_attachment")
    /// `invalid_title` (422).
    public static let invalidTitle = ProblemCode(rawValue: "invalid_title")
    /// `not_a_forum` (422).
    public static let notAForum = ProblemCode(rawValue: "not_a_forum")
    /// `wrong_part_size` (422).
    public static let wrongPartSize = ProblemCode(rawValue: "wrong_part_size")
    /// `digest_mismatch` (422).
    public static let digestMismatch = ProblemCode(rawValue: "digest_mismatch")
    /// `incomplete` (422): parts are missing.
    public static let incomplete = ProblemCode(rawValue: "incomplete")
    /// `upload_changed` (409 or 422, see the operation).
    public static let uploadChanged = ProblemCode(rawValue: "upload_changed")
    /// `invalid_metric` (422).
    public static let invalidMetric = ProblemCode(rawValue: "invalid_metric")
    /// `unknown_metric` (422).
    public static let unknownMetric = ProblemCode(rawValue: "unknown_metric")
    /// `too_many_metrics` (422).
    public static let tooManyMetrics = ProblemCode(rawValue: "too_many_metrics")
    /// `login_throttled` (429).
    public static let loginThrottled = ProblemCode(rawValue: "login_throttled")
    /// `upload_quota_exceeded` (429).
    public static let uploadQuotaExceeded = ProblemCode(rawValue: "upload_quota_exceeded")
    /// `storage_unavailable` (503).
    public static let storageUnavailable = ProblemCode(rawValue: "storage_unavailable")
    /// `server_busy` (503), from the HTTP engine for any path.
    public static let serverBusy = ProblemCode(rawValue: "server_busy")
    /// `insufficient_storage` (507).
    public static let insufficientStorage = ProblemCode(rawValue: "insufficient_storage")

    /// Every code of this contract.
    public static let known: [ProblemCode] = [
        .badRequest, .invalidJSON, .invalidClientMsgID, .invalidDigest, .invalidFileName, .invalidPart,
        .invalidDPoPProof, .useDPoPNonce, .invalidToken, .sessionRevoked, .tokenExpired, .refreshReuse,
        .invalidGrant, .invalidCredentials, .forbidden, .writeForbidden, .previewDisabled, .notFound,
        .methodNotAllowed, .uploadAttached, .uploadNotPending, .uploadExpired, .bodyTooLarge, .tooLarge,
        .unsupportedType, .clientMsgIDConflict, .emptyMessage, .textTooLong, .tooManyAttachments,
        .invalidAttachment, .invalidTitle, .notAForum, .wrongPartSize, .digestMismatch, .incomplete,
        .uploadChanged, .invalidMetric, .unknownMetric, .tooManyMetrics, .loginThrottled, .uploadQuotaExceeded,
        .storageUnavailable, .serverBusy, .insufficientStorage,
    ]
}
