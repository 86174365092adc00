import Foundation
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitWireContract

/// Decoding of request bodies and encoding of responses: the one JSON entry
/// point of the routes, for every body of the wire contract.
///
/// Requests decode strictly into `Decodable` types: a member of the wrong
/// type or a missing required member is a `400` problem naming the member,
/// never a crash and never a 5xx.
///
/// The bodies of createMessage and the answers with messages are read and
/// written by hand behind this API (``MessageBodyParser``, ``JSONOutput``):
/// `JSONDecoder` and `JSONEncoder` cost more per request than all of
/// createMessage's SQL (docs/performance.md). Those fast paths give the
/// values and the bytes the Codable types give (MessageJSONTests compares
/// them), so the routes do not know which one ran.
enum JSONBody {
    static let maxBytes = 1 << 20

    /// - Parameter refusingNUL: false for a route that checks some member
    ///   for NUL itself first (with its own code), then calls ``refuseNUL(in:)``.
    static func decode<T: Decodable>(_ type: T.Type, from body: [UInt8], refusingNUL: Bool = true) throws -> T {
        // A plain message body holds no escape, so no NUL: nothing to refuse.
        // Any other body is left to JSONDecoder, which then decides alone.
        if T.self == MessageCreate.self, let fast = MessageBodyParser.parse(body) as? T { return fast }
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
    ///
    /// A message answer (``JSONOutputWritable``) is written by ``JSONOutput``,
    /// every other value by `JSONEncoder`.
    static func encode(_ value: some Encodable) throws -> [UInt8] {
        if let fast = value as? any JSONOutputWritable {
            var output = JSONOutput()
            fast.write(to: &output)
            return output.bytes
        }
        return Array(try encoder().encode(value))
    }

    /// The encoder of every answer that has no fast path, and the reference the fast path is held to.
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// A JSON response from a body of the wire contract.
    static func response(
        _ status: HTTPStatus, _ value: some Encodable, headers extra: HTTPFields = [:], route: String? = nil
    ) -> HTTPResponse {
        let bytes = (try? encode(value)) ?? Array("{}".utf8)
        var headers: HTTPFields = ["Content-Type": "application/json"]
        for field in extra { headers.add(field.name, field.value) }
        return HTTPResponse(status: status, headers: headers, body: .bytes(bytes), routeTemplate: route)
    }
}
