/// An HTTP status code. The engine supplies the reason phrase.
public struct HTTPStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible,
    ExpressibleByIntegerLiteral
{
    /// The three-digit code.
    public let rawValue: Int

    /// Wraps a status code.
    /// - Parameter rawValue: the code; engines answer only 200...599 (anything
    ///   else is a handler bug and becomes a 500).
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Wraps a status code written in code.
    /// - Parameter value: the code.
    public init(integerLiteral value: Int) { self.rawValue = value }

    /// The code.
    public var code: Int { rawValue }

    /// Whether the code is a client error (4xx).
    public var isClientError: Bool { (400...499).contains(rawValue) }

    /// Whether the code is a server error (5xx).
    public var isServerError: Bool { (500...599).contains(rawValue) }

    /// The code as text.
    public var description: String { String(rawValue) }

    /// 200 OK.
    public static let ok: HTTPStatus = 200
    /// 201 Created.
    public static let created: HTTPStatus = 201
    /// 202 Accepted.
    public static let accepted: HTTPStatus = 202
    /// 204 No Content.
    public static let noContent: HTTPStatus = 204
    /// 206 Partial Content.
    public static let partialContent: HTTPStatus = 206
    /// 304 Not Modified.
    public static let notModified: HTTPStatus = 304
    /// 400 Bad Request.
    public static let badRequest: HTTPStatus = 400
    /// 401 Unauthorized.
    public static let unauthorized: HTTPStatus = 401
    /// 403 Forbidden.
    public static let forbidden: HTTPStatus = 403
    /// 404 Not Found.
    public static let notFound: HTTPStatus = 404
    /// 405 Method Not Allowed.
    public static let methodNotAllowed: HTTPStatus = 405
    /// 408 Request Timeout.
    public static let requestTimeout: HTTPStatus = 408
    /// 409 Conflict.
    public static let conflict: HTTPStatus = 409
    /// 411 Length Required.
    public static let lengthRequired: HTTPStatus = 411
    /// 413 Content Too Large.
    public static let contentTooLarge: HTTPStatus = 413
    /// 414 URI Too Long.
    public static let uriTooLong: HTTPStatus = 414
    /// 415 Unsupported Media Type.
    public static let unsupportedMediaType: HTTPStatus = 415
    /// 422 Unprocessable Content.
    public static let unprocessableContent: HTTPStatus = 422
    /// 429 Too Many Requests.
    public static let tooManyRequests: HTTPStatus = 429
    /// 431 Request Header Fields Too Large.
    public static let requestHeaderFieldsTooLarge: HTTPStatus = 431
    /// 500 Internal Server Error.
    public static let internalServerError: HTTPStatus = 500
    /// 501 Not Implemented.
    public static let notImplemented: HTTPStatus = 501
    /// 503 Service Unavailable.
    public static let serviceUnavailable: HTTPStatus = 503
}
