import ShareKitHTTPServerInterface
import ShareKitHTTPTypes

/// The checks of a complete request head that libmicrohttpd does not make,
/// or makes only with its own HTML answers: the transfer coding (when the
/// first `Transfer-Encoding` field is not exactly `chunked`, it reads the
/// body until the client closes the connection), and the sizes of the
/// target and the head below the connection memory (over it, libmicrohttpd
/// answers 414 or 431 itself before any callback).
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
        // Exactly what libmicrohttpd frames as chunked: one field whose whole
        // value is `chunked` in any case. Anything else (`chunked ` with a
        // trailing space or tab, `,chunked`, an empty field before the real
        // one) it would read to the end of the connection, so it is
        // refused here, at the head, before any body is read.
        if !codings.isEmpty, codings.count != 1 || !isChunked(codings[0]) {
            return HTTPProblem(
                status: .notImplemented, code: "unsupported_transfer_coding", title: "Not Implemented",
                detail: "The server accepts only the transfer coding chunked, alone.")
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

    /// Whether a value is `chunked` in any ASCII case, as libmicrohttpd
    /// compares it (a Unicode case mapping would also take the Kelvin sign
    /// for a `k`).
    private static func isChunked(_ value: String) -> Bool {
        let expected = "chunked".utf8
        // Every byte of `chunked` is a letter: setting bit 0x20 lowers an
        // ASCII capital and no other byte gives that letter.
        return value.utf8.count == expected.count && zip(value.utf8, expected).allSatisfy { $0 | 0x20 == $1 }
    }
}
