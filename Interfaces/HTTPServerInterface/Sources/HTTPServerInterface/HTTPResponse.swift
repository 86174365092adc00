public import ShareKitHTTPTypes

/// What a handler answers: a status, header fields and a body.
///
/// The engine frames the body itself: `Content-Length` and
/// `Transfer-Encoding` set here are ignored. It adds `X-Request-Id`, and
/// `Date`. A header name or value the engine cannot send (a line break in a
/// value, an empty name) is a handler bug and becomes a 500 problem.
public struct HTTPResponse: Sendable {
    /// The status.
    public var status: HTTPStatus
    /// The header fields.
    public var headers: HTTPFields
    /// The body.
    public var body: HTTPResponseBody
    /// The route template this request matched (`/uploads/{id}/parts/{n}`),
    /// written to the request log instead of the path when set, so that log
    /// lines group by route and ids in paths stay out of the log.
    public var routeTemplate: String?

    /// Makes a response.
    /// - Parameters:
    ///   - status: the status.
    ///   - headers: the header fields.
    ///   - body: the body.
    ///   - routeTemplate: the route for the request log.
    public init(
        status: HTTPStatus, headers: HTTPFields = [:], body: HTTPResponseBody = .empty,
        routeTemplate: String? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.routeTemplate = routeTemplate
    }

    /// A response with a UTF-8 text body.
    /// - Parameters:
    ///   - status: the status.
    ///   - text: the body text.
    ///   - contentType: the media type, `text/plain; charset=utf-8` unless given.
    /// - Returns: the response.
    public static func text(
        _ status: HTTPStatus, _ text: String, contentType: String = "text/plain; charset=utf-8"
    ) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": contentType], body: .bytes(Array(text.utf8)))
    }

    /// A response with a JSON body the caller has already encoded.
    /// - Parameters:
    ///   - status: the status.
    ///   - json: the encoded JSON document.
    /// - Returns: the response, `Content-Type: application/json`.
    public static func json(_ status: HTTPStatus, _ json: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: .bytes(json))
    }
}
