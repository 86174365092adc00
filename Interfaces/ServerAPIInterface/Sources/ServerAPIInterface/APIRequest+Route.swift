public import ShareKitHTTPInterface
public import ShareKitHTTPTypes
public import ShareKitWireContract

extension APIRequest {
    /// Makes the request of a route of the wire contract: its method, and
    /// its path with every parameter percent-encoded, come from the
    /// contract, so no client spells a path of its own.
    /// - Parameters:
    ///   - route: the operation with its path parameters.
    ///   - query: query items (nil values left out), each value encoded.
    ///   - name: the name in messages and logs, when it is more than the
    ///     operationId (`uploadPart 3`); the operationId otherwise.
    ///   - headers: extra header fields.
    ///   - body: the body.
    public init(
        _ route: Route, query: [(String, String?)] = [], name: String? = nil, headers: HTTPFields = [:],
        body: HTTPRequestBody = .empty
    ) {
        self.init(
            name ?? route.operation.rawValue, method: HTTPRequestMethod(rawValue: route.operation.method.rawValue),
            path: route.path(query: query), headers: headers, body: body)
    }

    /// Makes the request of a route of the wire contract with a JSON body
    /// encoded from `body`.
    /// - Parameters:
    ///   - route: the operation with its path parameters.
    ///   - name: the name in messages and logs, when it is not the
    ///     operationId (`createMessage` for both kinds of timeline); the
    ///     operationId otherwise.
    ///   - body: the body's value.
    /// - Throws: ``APIError/failed(_:)`` when the value cannot be encoded
    ///   (a number that is not finite).
    public init<Body: Encodable>(_ route: Route, name: String? = nil, json body: Body) throws(APIError) {
        try self.init(
            name ?? route.operation.rawValue, method: HTTPRequestMethod(rawValue: route.operation.method.rawValue),
            path: route.path, json: body)
    }
}
