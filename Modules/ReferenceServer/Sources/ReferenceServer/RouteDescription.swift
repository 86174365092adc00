public import HTTPServerInterface
import HTTPTypes

/// One operation of the wire contract: its operationId (docs/protocol.md and
/// docs/api/openapi.yaml), method and path template.
public struct RouteDescription: Hashable, Sendable {
    /// The operationId, e.g. `createMessage`.
    public let operationID: String
    /// The HTTP method.
    public let method: HTTPMethod
    /// The path template under the base path, e.g. `/api/v1/threads/{id}/messages`.
    public let template: String

    /// Makes a description.
    public init(operationID: String, method: HTTPMethod, template: String) {
        self.operationID = operationID
        self.method = method
        self.template = template
    }

    /// Matches a request path against the template.
    /// - Parameter segments: the request path's segments (percent-decoded).
    /// - Returns: the values of the `{name}` placeholders, or nil when the path does not match.
    func match(_ segments: [String]) -> [String: String]? {
        let parts = template.split(separator: "/").map(String.init)
        guard parts.count == segments.count else { return nil }
        var values: [String: String] = [:]
        for (part, segment) in zip(parts, segments) {
            if part.hasPrefix("{"), part.hasSuffix("}") {
                guard !segment.isEmpty else { return nil }
                values[String(part.dropFirst().dropLast())] = segment
            } else if part != segment {
                return nil
            }
        }
        return values
    }
}
