public import ShareKitHTTPTypes

/// An error answer in the wire contract's form: `application/problem+json`
/// (RFC 9457) with a machine-readable `code` (docs/protocol.md, "Errors").
///
/// It is an `Error` so that a handler, or a body sink, can `throw` it: the
/// engine answers a thrown problem with the problem itself, and any other
/// error with a 500 `internal_error` problem.
public struct HTTPProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// The status.
    public var status: HTTPStatus
    /// The machine-readable code, `snake_case` (`write_forbidden`).
    public var code: String
    /// A short summary of the kind of problem, the same for every occurrence.
    public var title: String
    /// What happened this time, for a person; never a value taken from the
    /// request's credentials.
    public var detail: String?
    /// A URI naming the problem type; `about:blank` when the status says it all.
    public var type: String

    /// Makes a problem.
    /// - Parameters:
    ///   - status: the status.
    ///   - code: the machine-readable code.
    ///   - title: a short summary of the kind of problem.
    ///   - detail: what happened this time.
    ///   - type: a URI naming the problem type.
    public init(status: HTTPStatus, code: String, title: String, detail: String? = nil, type: String = "about:blank") {
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail
        self.type = type
    }

    /// The problem as a JSON document (members `type`, `title`, `status`,
    /// `code`, and `detail` when there is one).
    public var jsonBytes: [UInt8] {
        var json = "{\"type\":" + Self.quoted(type) + ",\"title\":" + Self.quoted(title)
        json += ",\"status\":\(status.rawValue),\"code\":" + Self.quoted(code)
        if let detail { json += ",\"detail\":" + Self.quoted(detail) }
        json += "}"
        return Array(json.utf8)
    }

    /// The problem as a response.
    /// - Parameter headers: more header fields (`Retry-After`, `WWW-Authenticate`…).
    /// - Returns: a response with `Content-Type: application/problem+json`.
    public func response(headers: HTTPFields = [:]) -> HTTPResponse {
        var all = headers
        all.set("Content-Type", "application/problem+json")
        return HTTPResponse(status: status, headers: all, body: .bytes(jsonBytes))
    }

    /// `status code: detail` (or the title when there is no detail).
    public var description: String { "\(status) \(code): \(detail ?? title)" }

    /// A JSON string literal (RFC 8259 section 7): quotes, backslashes and
    /// control characters escaped, everything else kept as UTF-8.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
