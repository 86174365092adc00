import ShareKitHTTPTypes

/// An HTTP request method (RFC 9110 section 9). Methods are case-sensitive:
/// `get` is not `GET`.
public struct HTTPRequestMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The method token as sent, for example `PUT`.
    public let rawValue: String

    /// Wraps a method token; clients refuse one that is not a valid token
    /// (``HTTPClientError/invalidRequest(_:)``).
    /// - Parameter rawValue: the token.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Wraps a method token written in code.
    /// - Parameter value: the token.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// `GET`.
    public static let get: HTTPRequestMethod = "GET"
    /// `HEAD`: the response has no body.
    public static let head: HTTPRequestMethod = "HEAD"
    /// `POST`.
    public static let post: HTTPRequestMethod = "POST"
    /// `PUT`.
    public static let put: HTTPRequestMethod = "PUT"
    /// `PATCH`.
    public static let patch: HTTPRequestMethod = "PATCH"
    /// `DELETE`.
    public static let delete: HTTPRequestMethod = "DELETE"

    /// The method token.
    public var description: String { rawValue }

    /// Whether the token is a valid `token` (RFC 9110 section 5.6.2): one or
    /// more visible ASCII characters other than delimiters.
    public var isValidToken: Bool {
        !rawValue.isEmpty && rawValue.utf8.allSatisfy(HTTPField.isTokenCharacter)
    }
}
