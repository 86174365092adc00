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

    static func decode<T: Decodable>(_ type: T.Type, from body: [UInt8]) throws -> T {
        guard !body.isEmpty else { throw Problems.badRequest("The request needs a JSON body.", code: "invalid_json") }
        do {
            return try JSONDecoder().decode(T.self, from: Data(body))
        } catch {
            throw Problems.badRequest(describeDecodingError(error, root: "body"), code: "invalid_json")
        }
    }

    /// A JSON response from a JSON-compatible value (dictionaries, arrays,
    /// strings, numbers, booleans, NSNull).
    static func response(
        _ status: HTTPStatus, _ value: Any, headers extra: HTTPFields = [:], route: String? = nil
    ) -> HTTPResponse {
        let data =
            (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data("{}".utf8)
        var headers: HTTPFields = ["Content-Type": "application/json"]
        for field in extra { headers.add(field.name, field.value) }
        return HTTPResponse(status: status, headers: headers, body: .bytes(Array(data)), routeTemplate: route)
    }
}
