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

/// RFC 3339 UTC timestamps with milliseconds.
///
/// Formatted by hand from `gmtime_r`: a new `ISO8601DateFormatter` per call
/// builds an ICU formatter and took about 16 % of the server's CPU in the
/// createMessage benchmark, and a shared one is not documented as
/// thread-safe on Linux.
enum Timestamp {
    static func string(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        var seconds = time_t(interval.rounded(.down))
        let millis = min(999, max(0, Int(((interval - Double(seconds)) * 1000).rounded(.down))))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return pad(parts.tm_year + 1900, 4) + "-" + pad(parts.tm_mon + 1, 2) + "-" + pad(parts.tm_mday, 2) + "T"
            + pad(parts.tm_hour, 2) + ":" + pad(parts.tm_min, 2) + ":" + pad(parts.tm_sec, 2) + "."
            + pad(Int32(millis), 3) + "Z"
    }
}
