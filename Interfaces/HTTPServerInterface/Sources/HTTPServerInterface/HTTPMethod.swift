/// An HTTP request method, as the client sent it (methods are case-sensitive,
/// RFC 9110 section 9.1, so `get` is not `GET`).
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The method token, for example `GET`.
    public let rawValue: String

    /// Wraps a method token.
    /// - Parameter rawValue: the token as sent.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Wraps a method token written in code.
    /// - Parameter value: the token.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// `GET`.
    public static let get: HTTPMethod = "GET"
    /// `HEAD`: handlers see it as it is (answer it like `GET`); the engine
    /// sends the head of the response and never its body.
    public static let head: HTTPMethod = "HEAD"
    /// `POST`.
    public static let post: HTTPMethod = "POST"
    /// `PUT`.
    public static let put: HTTPMethod = "PUT"
    /// `PATCH`.
    public static let patch: HTTPMethod = "PATCH"
    /// `DELETE`.
    public static let delete: HTTPMethod = "DELETE"
    /// `OPTIONS`.
    public static let options: HTTPMethod = "OPTIONS"

    /// The method token.
    public var description: String { rawValue }
}
