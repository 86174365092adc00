/// One operation of the wire contract, without its path parameters: its
/// operationId (docs/protocol.md, docs/api/openapi.yaml), method, path
/// template and the problem codes it may answer.
///
/// The cases are in the order the server tries them; the order decides the
/// order of the methods in a `405`'s `Allow`.
public enum WireOperation: String, CaseIterable, Hashable, Sendable {
    /// `GET /api/v1/health`.
    case getHealth
    /// `POST /api/v1/auth/login`.
    case login
    /// `POST /api/v1/auth/refresh`.
    case refreshToken
    /// `POST /api/v1/auth/extension-sessions`.
    case createExtensionSession
    /// `POST /api/v1/auth/logout`.
    case logout
    /// `GET /api/v1/audit`.
    case listAudit
    /// `GET /api/v1/instance/limits`.
    case getInstanceLimits
    /// `GET /api/v1/spaces`.
    case listSpaces
    /// `GET /api/v1/threads/search`.
    case searchThreadTitles
    /// `GET /api/v1/threads/{id}/messages`.
    case listMessages
    /// `GET /api/v1/channels/{id}/messages`.
    case listChannelMessages
    /// `POST /api/v1/threads/{id}/messages`.
    case createMessage
    /// `POST /api/v1/channels/{id}/messages`.
    case createChannelMessage
    /// `POST /api/v1/channels/{id}/threads`.
    case createThread
    /// `POST /api/v1/uploads`.
    case createUpload
    /// `PUT /api/v1/uploads/{id}/parts/{n}`.
    case uploadPart
    /// `GET /api/v1/uploads/{id}`.
    case getUpload
    /// `POST /api/v1/uploads/{id}/complete`.
    case completeUpload
    /// `DELETE /api/v1/uploads/{id}`.
    case abortUpload
    /// `GET /api/v1/events`.
    case listEvents
    /// `GET /api/v1/settings`.
    case getSettings
    /// `PATCH /api/v1/settings`.
    case updateSettings
    /// `POST /api/v1/push/registrations`.
    case registerPush
    /// `DELETE /api/v1/push/registrations/{id}`.
    case unregisterPush
    /// `GET /api/v1/push/preview`.
    case getPushPreview
    /// `POST /api/v1/push/test`.
    case sendTestPush
    /// `POST /api/v1/client-metrics`.
    case submitClientMetrics
    /// `GET /web/messages/{id}`.
    case getMessagePage

    /// The operationId, e.g. `createMessage`.
    public var operationID: String { rawValue }

    /// The HTTP method.
    public var method: WireMethod {
        switch self {
        case .getHealth, .listAudit, .getInstanceLimits, .listSpaces, .searchThreadTitles, .listMessages,
            .listChannelMessages, .getUpload, .listEvents, .getSettings, .getPushPreview, .getMessagePage:
            .get
        case .login, .refreshToken, .createExtensionSession, .logout, .createMessage, .createChannelMessage,
            .createThread, .createUpload, .completeUpload, .registerPush, .sendTestPush, .submitClientMetrics:
            .post
        case .uploadPart: .put
        case .updateSettings: .patch
        case .abortUpload, .unregisterPush: .delete
        }
    }

    /// The path template, e.g. `/api/v1/threads/{id}/messages`: literal
    /// segments and `{name}` placeholders, each a whole segment.
    ///
    /// These are the only spellings of the contract's paths in the code;
    /// both sides build and match paths from them.
    public var template: String {
        switch self {
        case .getHealth: "/api/v1/health"
        case .login: "/api/v1/auth/login"
        case .refreshToken: "/api/v1/auth/refresh"
        case .createExtensionSession: "/api/v1/auth/extension-sessions"
        case .logout: "/api/v1/auth/logout"
        case .listAudit: "/api/v1/audit"
        case .getInstanceLimits: "/api/v1/instance/limits"
        case .listSpaces: "/api/v1/spaces"
        case .searchThreadTitles: "/api/v1/threads/search"
        case .listMessages, .createMessage: "/api/v1/threads/{id}/messages"
        case .listChannelMessages, .createChannelMessage: "/api/v1/channels/{id}/messages"
        case .createThread: "/api/v1/channels/{id}/threads"
        case .createUpload: "/api/v1/uploads"
        case .uploadPart: "/api/v1/uploads/{id}/parts/{n}"
        case .getUpload, .abortUpload: "/api/v1/uploads/{id}"
        case .completeUpload: "/api/v1/uploads/{id}/complete"
        case .listEvents: "/api/v1/events"
        case .getSettings, .updateSettings: "/api/v1/settings"
        case .registerPush: "/api/v1/push/registrations"
        case .unregisterPush: "/api/v1/push/registrations/{id}"
        case .getPushPreview: "/api/v1/push/preview"
        case .sendTestPush: "/api/v1/push/test"
        case .submitClientMetrics: "/api/v1/client-metrics"
        case .getMessagePage: "/web/messages/{id}"
        }
    }

    /// The template's segments, literal or placeholder, in order.
    public var segments: [TemplateSegment] {
        template.split(separator: "/").map { part in
            part.hasPrefix("{") && part.hasSuffix("}")
                ? .placeholder(String(part.dropFirst().dropLast())) : .literal(String(part))
        }
    }

    /// The names of the template's placeholders, in order (`["id", "n"]` for uploadPart).
    public var parameterNames: [String] {
        segments.compactMap { if case .placeholder(let name) = $0 { name } else { nil } }
    }

    /// Whether requests of this operation carry a credential
    /// (`Authorization: DPoP …` and a proof); getHealth, login,
    /// refreshToken (its token is in the body) and getMessagePage do not.
    public var needsAccessToken: Bool {
        switch self {
        case .getHealth, .login, .refreshToken, .getMessagePage: false
        default: true
        }
    }
}

/// One segment of a path template.
public enum TemplateSegment: Hashable, Sendable {
    /// Matches exactly this text.
    case literal(String)
    /// Matches any non-empty segment, kept under this name.
    case placeholder(String)
}

extension WireOperation {
    /// The problem codes this operation may answer, as its "Problem codes"
    /// paragraph in docs/api/openapi.yaml lists them (tools/validate-openapi
    /// compares the two). `method_not_allowed` and `server_busy` may come
    /// from any path and are not listed; a `429` without a code is not either.
    public var problemCodes: [ProblemCode] {
        switch self {
        case .getHealth:
            [.storageUnavailable]
        case .login:
            [
                .invalidJSON, .badRequest, .invalidDPoPProof, .useDPoPNonce, .invalidCredentials, .bodyTooLarge,
                .loginThrottled, .storageUnavailable, .insufficientStorage,
            ]
        case .refreshToken:
            [
                .invalidJSON, .invalidDPoPProof, .useDPoPNonce, .invalidGrant, .refreshReuse, .sessionRevoked,
                .tokenExpired, .bodyTooLarge, .storageUnavailable,
            ]
        case .createExtensionSession:
            [
                .invalidJSON, .badRequest, .invalidDPoPProof, .useDPoPNonce, .invalidToken, .sessionRevoked,
                .tokenExpired, .forbidden, .bodyTooLarge, .storageUnavailable,
            ]
        case .logout:
            [.invalidToken, .sessionRevoked, .tokenExpired, .invalidDPoPProof, .useDPoPNonce, .storageUnavailable]
        case .listAudit:
            [.invalidToken, .sessionRevoked, .tokenExpired, .invalidDPoPProof, .useDPoPNonce, .storageUnavailable]
        case .getInstanceLimits:
            [.invalidToken, .sessionRevoked, .tokenExpired, .invalidDPoPProof, .useDPoPNonce, .storageUnavailable]
        case .listSpaces:
            [.invalidToken, .sessionRevoked, .tokenExpired, .invalidDPoPProof, .useDPoPNonce, .storageUnavailable]
        case .searchThreadTitles:
            [
                .badRequest, .invalidToken, .sessionRevoked, .tokenExpired, .invalidDPoPProof, .useDPoPNonce,
                .storageUnavailable,
            ]
        case .listMessages:
            [
                .badRequest, .invalidToken, .sessionRevoked, .tokenExpired, .invalidDPoPProof, .useDPoPNonce, .notFound,
                .storageUnavailable,
            ]
        case .createMessage:
            [
                .invalidJSON, .invalidClientMsgID, .invalidToken, .sessionRevoked, .tokenExpired, .invalidDPoPProof,
                .useDPoPNonce, .writeForbidden, .notFound, .bodyTooLarge, .clientMsgIDConflict, .emptyMessage,
                .textTooLong, .tooManyAttachments, .invalidAttachment, .storageUnavailable,
            ]
        case .listChannelMessages:
            [
                .badRequest, .invalidToken, .sessionRevoked, .tokenExpired, .invalidDPoPProof, .useDPoPNonce, .notFound,
                .storageUnavailable,
            ]
        case .createChannelMessage:
            [
                .invalidJSON, .invalidClientMsgID, .invalidToken, .sessionRevoked, .tokenExpired, .invalidDPoPProof,
                .useDPoPNonce, .writeForbidden, .notFound, .bodyTooLarge, .clientMsgIDConflict, .emptyMessage,
                .textTooLong, .tooManyAttachments, .invalidAttachment, .storageUnavailable,
            ]
        case .createThread:
            [
                .invalidJSON, .invalidTitle, .invalidClientMsgID, .invalidToken, .sessionRevoked, .tokenExpired,
                .invalidDPoPProof, .useDPoPNonce, .writeForbidden, .notFound, .bodyTooLarge, .notAForum,
                .clientMsgIDConflict, .emptyMessage, .textTooLong, .tooManyAttachments, .invalidAttachment,
                .storageUnavailable,
            ]
        case .createUpload:
            [
                .invalidJSON, .invalidFileName, .invalidDigest, .badRequest, .invalidToken, .sessionRevoked,
                .tokenExpired, .invalidDPoPProof, .useDPoPNonce, .tooLarge, .bodyTooLarge, .unsupportedType,
                .uploadQuotaExceeded, .storageUnavailable, .insufficientStorage,
            ]
        case .getUpload:
            [
                .invalidToken, .sessionRevoked, .tokenExpired, .invalidDPoPProof, .useDPoPNonce, .notFound,
                .uploadExpired, .storageUnavailable,
            ]
        case .abortUpload:
            [
                .invalidToken, .sessionRevoked, .tokenExpired, .invalidDPoPProof, .useDPoPNonce, .notFound,
                .uploadExpired, .uploadAttached, .storageUnavailable,
            ]
        case .uploadPart:
            [
                .invalidPart, .wrongPartSize, .invalidDigest, .invalidToken, .sessionRevoked, .tokenExpired,
                .invalidDPoPProof, .useDPoPNonce, .notFound, .uploadExpired, .uploadNotPending, .digestMismatch,
                .storageUnavailable, .insufficientStorage,
            ]
        case .completeUpload:
            [
                .invalidToken, .sessionRevoked, .tokenExpired, .invalidDPoPProof, .useDPoPNonce, .notFound,
                .uploadExpired, .incomplete, .uploadNotPending, .uploadChanged, .digestMismatch, .storageUnavailable,
                .insufficientStorage,
            ]
        case .listEvents:
            [
                .badRequest, .invalidToken, .sessionRevoked, .tokenExpired, .invalidDPoPProof, .useDPoPNonce,
                .storageUnavailable,
            ]
        case .getSettings:
            [.invalidToken, .sessionRevoked, .tokenExpired, .invalidDPoPProof, .useDPoPNonce, .storageUnavailable]
        case .updateSettings:
            [
                .invalidJSON, .badRequest, .invalidToken, .sessionRevoked, .tokenExpired, .invalidDPoPProof,
                .useDPoPNonce, .bodyTooLarge, .storageUnavailable,
            ]
        case .registerPush:
            [
                .invalidJSON, .badRequest, .invalidToken, .sessionRevoked, .tokenExpired, .invalidDPoPProof,
                .useDPoPNonce, .bodyTooLarge, .storageUnavailable,
            ]
        case .unregisterPush:
            [
                .invalidToken, .sessionRevoked, .tokenExpired, .invalidDPoPProof, .useDPoPNonce, .notFound,
                .storageUnavailable,
            ]
        case .getPushPreview:
            [
                .badRequest, .invalidToken, .invalidDPoPProof, .useDPoPNonce, .previewDisabled, .notFound,
                .storageUnavailable,
            ]
        case .sendTestPush:
            [
                .invalidJSON, .invalidToken, .sessionRevoked, .tokenExpired, .invalidDPoPProof, .useDPoPNonce,
                .notFound, .bodyTooLarge, .storageUnavailable,
            ]
        case .submitClientMetrics:
            [
                .invalidJSON, .invalidToken, .sessionRevoked, .tokenExpired, .invalidDPoPProof, .useDPoPNonce,
                .bodyTooLarge, .tooManyMetrics, .unknownMetric, .invalidMetric, .storageUnavailable,
            ]
        case .getMessagePage:
            [.notFound, .storageUnavailable]
        }
    }
}
