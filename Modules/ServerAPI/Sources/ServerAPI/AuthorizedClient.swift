import Glibc
public import ShareKitHTTPInterface
import ShareKitHTTPTypes
public import ShareKitServerAPIInterface
public import ShareKitSessionsInterface

/// The ``ShareKitServerAPIInterface/AuthorizedAPIClient`` of the client side: one
/// session family's tokens (an ``ShareKitSessionsInterface/AccessTokenProvider``)
/// over the DPoP-signing HTTP client.
///
/// Each call: take the current access token (the provider refreshes it
/// when it is about to expire), send the request signed for that token,
/// and when the server answers `401` with a code of
/// ``ShareKitServerAPIInterface/APIClassifier/refreshCodes``, report the token
/// refused and send once more with the token the provider hands out next.
/// Everything else is classified by ``ShareKitServerAPIInterface/APIClassifier``.
public struct AuthorizedClient: AuthorizedAPIClient {
    /// The server's origin.
    public let origin: String
    private let client: any DPoPSigningHTTPClient
    private let tokens: any AccessTokenProvider
    private let timeouts: HTTPTimeouts
    private let clock: @Sendable () -> Int64

    /// Makes a client for one server and one session family.
    /// - Parameters:
    ///   - origin: `scheme://host[:port]` of the server (a trailing `/` is dropped).
    ///   - client: signs every request with the device key's proof and follows nonces.
    ///   - tokens: the session family's access tokens (or a fixed credential).
    ///   - timeouts: the time limits of each attempt unless a call gives its own.
    ///   - clock: Unix seconds, for `Retry-After` dates.
    public init(
        origin: String, client: any DPoPSigningHTTPClient, tokens: any AccessTokenProvider,
        timeouts: HTTPTimeouts = HTTPTimeouts(),
        clock: @escaping @Sendable () -> Int64 = AuthorizedClient.systemClock
    ) {
        self.origin = origin.hasSuffix("/") ? String(origin.dropLast()) : origin
        self.client = client
        self.tokens = tokens
        self.timeouts = timeouts
        self.clock = clock
    }

    /// Unix time in whole seconds, from the system's real-time clock.
    public static let systemClock: @Sendable () -> Int64 = {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec)
    }

    /// Sends one request with the session (see the type's documentation).
    /// - Parameters:
    ///   - request: the route, method and body.
    ///   - options: time limits, progress and cancellation of this call.
    /// - Returns: the successful answer.
    /// - Throws: ``ShareKitServerAPIInterface/APIError``.
    public func send(_ request: APIRequest, options: APICallOptions) async throws(APIError) -> APIResponse {
        let http = HTTPClientRequest(
            method: request.method, url: origin + request.path, headers: request.headers, body: request.body)
        var httpOptions = HTTPRequestOptions(
            timeouts: options.timeouts ?? timeouts, progress: options.progress, cancellation: options.cancellation)
        if let limit = options.maxResponseBodyBytes { httpOptions.maxResponseBodyBytes = limit }
        var refreshed = false
        while true {
            if options.cancellation?.isCancelled == true || Task.isCancelled { throw .cancelled }
            let token = try await accessToken(for: request.operation)
            let response: HTTPClientResponse
            do {
                response = try await client.send(http, accessToken: token.plainText, options: httpOptions)
            } catch {
                throw APIClassifier.classify(error, operation: request.operation)
            }
            if response.status == 401, !refreshed {
                let problem = ProblemDocument(body: response.body, status: response.status)
                if APIClassifier.refreshCodes.contains(problem.code) {
                    refreshed = true
                    await tokens.reportRejected(token: token)
                    continue
                }
            }
            if let error = APIClassifier.classify(
                status: response.status, headers: response.headers, body: response.body,
                operation: request.operation, now: clock())
            {
                throw error
            }
            return APIResponse(status: response.status, headers: response.headers, body: response.body)
        }
    }

    /// The session's token, its failures as API errors: no session is an
    /// ended session; a refresh that failed for a passing reason, or a
    /// keychain that could not be read, may work later.
    private func accessToken(for operation: String) async throws(APIError) -> AccessToken {
        do {
            return try await tokens.currentAccessToken()
        } catch {
            switch error {
            case .cancelled: throw .cancelled
            case .unavailable: throw .sessionEnded(error.description)
            case .retryable, .failed: throw .retryable(APIRetry(kind: .session, message: error.description))
            }
        }
    }
}
