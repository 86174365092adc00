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
    /// The template's segments, split once rather than on every request.
    private let parts: [Part]

    /// One segment of a template.
    private enum Part: Hashable, Sendable {
        /// Matches exactly this text.
        case literal(String)
        /// Matches any non-empty segment, kept under this name.
        case placeholder(String)
    }

    /// Makes a description.
    public init(operationID: String, method: HTTPMethod, template: String) {
        self.operationID = operationID
        self.method = method
        self.template = template
        parts = template.split(separator: "/").map { part in
            part.hasPrefix("{") && part.hasSuffix("}")
                ? .placeholder(String(part.dropFirst().dropLast())) : .literal(String(part))
        }
    }

    /// Matches a request path against the template.
    /// - Parameter segments: the request path's segments (percent-decoded).
    /// - Returns: the values of the `{name}` placeholders, or nil when the path does not match.
    func match(_ segments: [String]) -> [String: String]? {
        guard parts.count == segments.count else { return nil }
        for (part, segment) in zip(parts, segments) {
            if case .literal(let text) = part, text != segment { return nil }
        }
        var values: [String: String] = [:]
        for (part, segment) in zip(parts, segments) {
            guard case .placeholder(let name) = part else { continue }
            guard !segment.isEmpty else { return nil }
            values[name] = segment
        }
        return values
    }
}
