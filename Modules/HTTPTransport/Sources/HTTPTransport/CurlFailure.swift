import CShareKitCurl
import CShareKitCurlShim
import ShareKitHTTPInterface
import ShareKitHTTPTypes

/// Maps a failed transfer's `CURLcode` to the ``ShareKitHTTPInterface/HTTPClientError`` case
/// a sender acts on.
enum CurlFailure {
    /// What is known about a failed transfer besides its code.
    struct Context {
        /// libcurl's message from `CURLOPT_ERRORBUFFER` (hosts and ports, never headers).
        var message: String
        /// Whether the transfer was cancelled.
        var cancelled: Bool
        /// The body source's own failure (unreadable or changed file).
        var bodyFailure: HTTPClientError?
        /// Whether the response body went over its cap.
        var responseTooLarge: Bool
        /// The response body cap.
        var responseLimit: Int
        /// The redirect limit in force.
        var redirectLimit: Int
        /// Whether a connection was established (or reused) before the failure.
        var connected: Bool
        /// Whether the total time limit had passed when the transfer failed.
        var pastTotalLimit: Bool
    }

    /// The error for a failed transfer.
    /// - Parameters:
    ///   - code: libcurl's result (not `CURLE_OK`).
    ///   - context: what else is known.
    /// - Returns: the error.
    static func error(for code: CURLcode, context: Context) -> HTTPClientError {
        // The causes this side knows best come first: libcurl reports them
        // only as "aborted by callback", "read error" or "write error".
        if context.cancelled { return .cancelled }
        if let failure = context.bodyFailure { return failure }
        if context.responseTooLarge { return .responseTooLarge(limit: context.responseLimit) }
        let message = context.message.isEmpty ? String(cString: ccurl_easy_strerror(code)) : context.message
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return .invalidURL(message)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .hostNotFound(message)
        case CURLE_COULDNT_CONNECT:
            return .cannotConnect(message)
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut(timeoutKind(message: message, context: context))
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
            CURLE_SSL_ENGINE_INITFAILED, CURLE_USE_SSL_FAILED, CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE,
            CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS,
            CURLE_SSL_CLIENTCERT:
            return .tlsFailure(message)
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_PARTIAL_FILE, CURLE_HTTP2_STREAM:
            return .connectionLost(message)
        case CURLE_GOT_NOTHING:
            return .connectionLost("the server closed the connection without answering")
        case CURLE_SEND_FAIL_REWIND:
            return .connectionLost("the body had to be sent again and could not be rewound: \(message)")
        case CURLE_WEIRD_SERVER_REPLY, CURLE_HTTP2, CURLE_BAD_CONTENT_ENCODING, CURLE_HTTP_RETURNED_ERROR:
            return .protocolError(message)
        case CURLE_TOO_MANY_REDIRECTS:
            return .tooManyRedirects(limit: context.redirectLimit)
        case CURLE_ABORTED_BY_CALLBACK:
            return .cancelled
        default:
            return .transportFailure("libcurl error \(code.rawValue): \(message)")
        }
    }

    /// Which limit a `CURLE_OPERATION_TIMEDOUT` came from. libcurl uses one
    /// code for all three; its message and the transfer's state tell them apart.
    private static func timeoutKind(message: String, context: Context) -> HTTPTimeoutKind {
        // "Operation too slow. Less than N bytes/sec transferred the last N seconds"
        if message.contains("too slow") { return .lowSpeed }
        if context.pastTotalLimit { return .total }
        // "Connection timed out after N milliseconds", "Resolving timed out…",
        // "SSL connection timeout": the connect phase did not finish.
        if !context.connected || message.hasPrefix("Connection timed out") || message.hasPrefix("Resolving timed out") {
            return .connect
        }
        return .total
    }
}
