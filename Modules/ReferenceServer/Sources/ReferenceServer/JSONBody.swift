import Foundation
import HTTPServerInterface
import HTTPTypes

/// Decoding of request bodies and encoding of responses.
///
/// Requests decode strictly into `Decodable` types: a member of the wrong
/// type or a missing required member is a `400` problem naming the member,
/// never a crash and never a 5xx.
enum JSONBody {
    static let maxBytes = 1 << 20

    /// - Parameter refusingNUL: false for a route that checks some member
    ///   for NUL itself first (with its own code), then calls ``refuseNUL(in:)``.
    static func decode<T: Decodable>(_ type: T.Type, from body: [UInt8], refusingNUL: Bool = true) throws -> T {
        guard !body.isEmpty else { throw Problems.badRequest("The request needs a JSON body.", code: "invalid_json") }
        let value: T
        do {
            value = try JSONDecoder().decode(T.self, from: Data(body))
        } catch {
            throw Problems.badRequest(describeDecodingError(error, root: "body"), code: "invalid_json")
        }
        if refusingNUL { try refuseNUL(in: value) }
        return value
    }

    /// Refuses a decoded body with a string that holds U+0000 (`400
    /// invalid_json`, naming the member). PostgreSQL's text cannot hold
    /// one, so such a string would be stored on SQLite and fail on
    /// PostgreSQL: refused on both engines. Only the members the route
    /// decoded count; unknown ones are dropped anyway.
    /// - Throws: the problem.
    static func refuseNUL(in value: Any) throws {
        if let path = nulPath(in: value, at: "body") {
            throw Problems.badRequest(
                "\(path) holds a NUL character (\\u0000), which the server does not accept.", code: "invalid_json")
        }
    }

    /// The path of the first decoded string that holds U+0000, if any: the
    /// decoded value's members, elements and optionals, walked by reflection.
    static func nulPath(in value: Any, at path: String) -> String? {
        if let text = value as? String { return text.utf8.contains(0) ? path : nil }
        let mirror = Mirror(reflecting: value)
        for (index, child) in mirror.children.enumerated() {
            let name = child.label.map { $0 == "some" ? path : "\(path).\($0)" } ?? "\(path)[\(index)]"
            if let found = nulPath(in: child.value, at: name) { return found }
        }
        return nil
    }

    /// The JSON text of a value: keys sorted, `/` as it is. For the
    /// contract's snake_case member names this is the order and the
    /// escaping the server's answers always had, so their bytes did not change.
    static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    /// A JSON response from a body of the wire contract.
    static func response(
        _ status: HTTPStatus, _ value: some Encodable, headers extra: HTTPFields = [:], route: String? = nil
    ) -> HTTPResponse {
        let data = (try? encode(value)) ?? Data("{}".utf8)
        var headers: HTTPFields = ["Content-Type": "application/json"]
        for field in extra { headers.add(field.name, field.value) }
        return HTTPResponse(status: status, headers: headers, body: .bytes(Array(data)), routeTemplate: route)
    }
}
