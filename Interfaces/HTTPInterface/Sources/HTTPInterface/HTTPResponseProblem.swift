import Foundation

/// The machine-readable code and the human detail of an error answer
/// (`application/problem+json`, RFC 9457), as every client of the server
/// reads it: `code` (else `http_<status>`) and `detail` (else `title`, else a
/// sentence naming the status).
public struct HTTPResponseProblem: Hashable, Sendable {
    /// The problem's `code`, e.g. `write_forbidden`.
    public var code: String
    /// The problem's `detail` or `title`, for a person.
    public var message: String

    /// Reads the problem document of a response; a body that is not one gives the status-based fallbacks.
    /// - Parameter response: the server's answer.
    public init(_ response: HTTPClientResponse) {
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
        code = object?["code"] as? String ?? "http_\(response.status)"
        message =
            object?["detail"] as? String ?? object?["title"] as? String ?? "The server answered \(response.status)."
    }
}
