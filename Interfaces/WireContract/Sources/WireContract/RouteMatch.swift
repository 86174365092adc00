/// What matching a request's method and path against the contract found.
public enum RouteMatch: Hashable, Sendable {
    /// The route of the request.
    case found(Route)
    /// The path names an operation, but not with this method: the methods
    /// that would do, in ``WireOperation`` order (a `405`'s `Allow`).
    case wrongMethod(allowed: [WireMethod])
    /// No operation has this path.
    case notFound
}

extension Route {
    /// Finds the route of a request.
    ///
    /// A path parameter with U+0000 names nothing: nothing stored holds one
    /// (request bodies with one are refused) and PostgreSQL cannot take one
    /// as a parameter, so such a path matches no operation at all (a `404`,
    /// never a `405`), and no handler ever sees the value.
    /// - Parameters:
    ///   - method: the request's method token, e.g. `GET`.
    ///   - segments: the path's segments, split on `/` first and
    ///     percent-decoded afterwards, empty segments left out.
    /// - Returns: the route, the methods the path allows, or not found.
    public static func match(method: String, segments: [String]) -> RouteMatch {
        var allowed: [WireMethod] = []
        for operation in WireOperation.allCases {
            guard let values = operation.match(segments), values.allSatisfy({ !$0.utf8.contains(0) }) else {
                continue
            }
            if operation.method.rawValue == method, let route = Route(operation, parameters: values) {
                return .found(route)
            }
            allowed.append(operation.method)
        }
        return allowed.isEmpty ? .notFound : .wrongMethod(allowed: allowed)
    }
}

extension WireOperation {
    /// Matches a path's segments against the template.
    /// - Parameter segments: the decoded segments.
    /// - Returns: the placeholders' values in order, or nil when the path
    ///   does not match (a placeholder matches only a non-empty segment).
    func match(_ segments: [String]) -> [String]? {
        let parts = self.segments
        guard parts.count == segments.count else { return nil }
        var values: [String] = []
        for (part, segment) in zip(parts, segments) {
            switch part {
            case .literal(let text): guard text == segment else { return nil }
            case .placeholder:
                guard !segment.isEmpty else { return nil }
                values.append(segment)
            }
        }
        return values
    }
}
