import HTTPServerInterface
import HTTPTypes

/// The checks of a complete request head that libmicrohttpd does not make,
/// or makes only with its own HTML answers: the transfer coding (it waits
/// for the connection to close when the coding is not `chunked`), and the
/// sizes of the target and the head below the connection memory (over it,
/// libmicrohttpd answers 414 or 431 itself before any callback).
enum HeadCheck {
    /// The problem for a head the engine does not serve, or nil.
    /// - Parameters:
    ///   - head: the head.
    ///   - target: the request target as sent.
    ///   - headSize: the bytes of the request line and header fields, as
    ///     libmicrohttpd counted them (0 when unknown).
    ///   - configuration: the limits.
    /// - Returns: `501 unsupported_transfer_coding`, `414 uri_too_long` or
    ///   `431 header_fields_too_large`, or nil.
    static func problem(
        _ head: HTTPRequestHead, target: String, headSize: Int, configuration: HTTPServerConfiguration
    ) -> HTTPProblem? {
        let codings = head.headers.values(for: "Transfer-Encoding")
        if !codings.isEmpty {
            let list = codings.flatMap { $0.split(separator: ",") }.map {
                $0.trimmingCharacters(in: " \t").lowercased()
            }
            guard list == ["chunked"] else {
                return HTTPProblem(
                    status: .notImplemented, code: "unsupported_transfer_coding", title: "Not Implemented",
                    detail: "The server accepts only the transfer coding chunked, alone.")
            }
        }
        if target.utf8.count > configuration.maxRequestTargetBytes {
            return HTTPProblem(
                status: .uriTooLong, code: "uri_too_long", title: "URI Too Long",
                detail: "The request target is longer than \(configuration.maxRequestTargetBytes) bytes.")
        }
        if headSize > configuration.maxRequestHeadBytes {
            return HTTPProblem(
                status: .requestHeaderFieldsTooLarge, code: "header_fields_too_large",
                title: "Request Header Fields Too Large",
                detail: "The request head is larger than \(configuration.maxRequestHeadBytes) bytes.")
        }
        return nil
    }
}

extension Substring {
    /// The text without the given characters at either end.
    fileprivate func trimmingCharacters(in set: String) -> String {
        let drop: (Character) -> Bool = { set.contains($0) }
        return String(self.drop(while: drop).reversed().drop(while: drop).reversed())
    }
}
