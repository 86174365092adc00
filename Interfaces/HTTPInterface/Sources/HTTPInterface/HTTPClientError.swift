/// Why a request ended without a complete response.
///
/// A response with an error status (`401`, `503`) is not an error here: it
/// comes back as an ``HTTPClientResponse``. Each case is something a sender
/// can act on: ``isRetryable`` tells whether trying again later may succeed
/// (no network, a stalled or cut connection) or whether something must
/// change first (a file, the URL, the trust store). Messages are for people
/// and logs; they name hosts, ports and file paths, never header values,
/// tokens, proofs or bodies.
public enum HTTPClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The URL is not an absolute `http` or `https` URL the client can use;
    /// the text says why.
    case invalidURL(String)
    /// The request cannot be sent as it is (a method that is not a token, a
    /// header field with a line break); the text names the part, not its value.
    case invalidRequest(String)
    /// The host name could not be resolved: no network, or the name does not exist.
    case hostNotFound(String)
    /// No connection could be made: the server is down, the port closed, or
    /// the network unreachable. The text is the transport's message.
    case cannotConnect(String)
    /// A time limit of ``HTTPTimeouts`` ended the request.
    case timedOut(HTTPTimeoutKind)
    /// The connection broke after it was established and before the
    /// response was complete (reset, closed mid-body, empty reply). The
    /// server may or may not have acted on the request.
    case connectionLost(String)
    /// The TLS handshake failed: the certificate is not trusted (see the
    /// client's CA file), has the wrong name or has expired, or the CA file
    /// cannot be read. The text is the TLS library's message.
    case tlsFailure(String)
    /// The request was cancelled (``HTTPCancellation`` or task cancellation).
    case cancelled
    /// The body's file cannot be opened or read.
    case fileUnreadable(path: String, reason: String)
    /// The body's file is not what the region describes: shorter than its
    /// end, or it shrank while being sent. Sending it as it is would send
    /// other bytes than the caller meant.
    case fileChanged(path: String, reason: String)
    /// More redirects than ``HTTPRequestOptions/redirectLimit``.
    case tooManyRedirects(limit: Int)
    /// The response body is larger than ``HTTPRequestOptions/maxResponseBodyBytes``.
    case responseTooLarge(limit: Int)
    /// The server's answer is not valid HTTP; the text is the transport's message.
    case protocolError(String)
    /// A signing decorator could not sign the request (DPoP); the text is the
    /// signer's message, which never contains a key, token or proof.
    case signingFailed(String)
    /// Any other failure of the transport; the text is its message.
    case transportFailure(String)

    /// Whether sending the same request again later may succeed without
    /// changing anything: true for a missing network, a refused or cut
    /// connection, a timeout and a malformed answer; false for the caller's
    /// own mistakes, trust failures, file problems and cancellation.
    public var isRetryable: Bool {
        switch self {
        case .hostNotFound, .cannotConnect, .timedOut, .connectionLost, .protocolError:
            return true
        case .invalidURL, .invalidRequest, .tlsFailure, .cancelled, .fileUnreadable, .fileChanged,
            .tooManyRedirects, .responseTooLarge, .signingFailed, .transportFailure:
            return false
        }
    }

    /// What happened, in a person's words, without the transport's own
    /// (libcurl's or OpenSSL's message, which ``description`` carries for
    /// `--verbose` and logs): what a person is shown.
    public var summary: String {
        switch self {
        case .invalidURL: return "the server's address is not a usable URL"
        case .invalidRequest: return "the request could not be made"
        case .hostNotFound: return "the server's name could not be found (no network, or a wrong name)"
        case .cannotConnect:
            return "nothing answers at the server's address: it is not running there, or the network is down"
        case .timedOut: return "the server did not answer in time"
        case .connectionLost: return "the connection to the server broke before its answer was complete"
        case .tlsFailure:
            return "no secure connection could be made (does the server speak https there, with a certificate "
                + "this machine trusts?)"
        case .cancelled: return "the request was cancelled"
        case .fileUnreadable(let path, _): return "\(path) cannot be read"
        case .fileChanged(let path, _): return "\(path) changed while it was being sent"
        case .tooManyRedirects: return "the server sent the request elsewhere too many times"
        case .responseTooLarge: return "the server's answer is too large"
        case .protocolError: return "the server's answer is not HTTP (is it the right address and port?)"
        case .signingFailed: return "the request could not be signed with this device's key"
        case .transportFailure: return "the connection to the server failed"
        }
    }

    /// A message for a person, with the transport's own words (logs, `--verbose`).
    public var description: String {
        switch self {
        case .invalidURL(let why): return "invalid URL: \(why)"
        case .invalidRequest(let why): return "invalid request: \(why)"
        case .hostNotFound(let why): return "cannot find the server (no network, or unknown host): \(why)"
        case .cannotConnect(let why): return "cannot connect to the server: \(why)"
        case .timedOut(.connect): return "timed out connecting to the server"
        case .timedOut(.lowSpeed): return "the transfer stalled: too little data moved for too long"
        case .timedOut(.total): return "the request took longer than its time limit"
        case .connectionLost(let why): return "the connection was lost before the response was complete: \(why)"
        case .tlsFailure(let why): return "secure connection failed: \(why)"
        case .cancelled: return "the request was cancelled"
        case .fileUnreadable(let path, let why): return "cannot read \(path): \(why)"
        case .fileChanged(let path, let why): return "\(path) changed while it was being sent: \(why)"
        case .tooManyRedirects(let limit): return "more than \(limit) redirects"
        case .responseTooLarge(let limit): return "the response is larger than \(limit) bytes"
        case .protocolError(let why): return "the server's answer is not valid HTTP: \(why)"
        case .signingFailed(let why): return "the request could not be signed: \(why)"
        case .transportFailure(let why): return "the HTTP transport failed: \(why)"
        }
    }
}
