public import ShareKitCore
public import ShareKitHTTPInterface
import ShareKitHTTPTypes
public import ShareKitServerAPIInterface
public import ShareKitSessionsInterface
import Synchronization

/// One Matrix homeserver's client-server API over an HTTP client: JSON
/// requests with a bearer token, and every answer that is not a success
/// classified as the senders of the reference server classify theirs
/// (``ShareKitServerAPIInterface/APIError``), so the delivery engine, the outbox and
/// the programs treat both backends alike.
public struct MatrixHomeserver: Sendable {
    /// The base URL of the client-server API (`http://127.0.0.1:8008`), no
    /// trailing slash.
    public let baseURL: String
    let client: any HTTPClient
    let timeouts: HTTPTimeouts
    /// The share's budget for waiting out `M_LIMIT_EXCEEDED` inline; nil
    /// hands every rate limit to the caller at once.
    let rateLimitWaits: MatrixWaitBudget?

    /// - Parameters:
    ///   - baseURL: the homeserver's base URL (what discovery found).
    ///   - client: a plain HTTP client (Matrix has no DPoP).
    ///   - timeouts: each request's time limits.
    public init(baseURL: String, client: any HTTPClient, timeouts: HTTPTimeouts = HTTPTimeouts()) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.client = client
        self.timeouts = timeouts
        rateLimitWaits = nil
    }

    private init(_ homeserver: MatrixHomeserver, rateLimitWaits: MatrixWaitBudget) {
        baseURL = homeserver.baseURL
        client = homeserver.client
        timeouts = homeserver.timeouts
        self.rateLimitWaits = rateLimitWaits
    }

    /// The same homeserver, whose authorized calls wait out a rate limit
    /// (`M_LIMIT_EXCEEDED` with `retry_after_ms`) inline and call again,
    /// while the waits fit in `budget`: the uploader and the message client
    /// of one share get one budget, so a burst of shares that the
    /// homeserver slows down is sent now rather than kept for the daemon.
    /// A wait longer than what is left ends the call with the rate limit's
    /// error (retryable, with the wait), which keeps the share as before.
    /// - Parameter budget: the share's budget.
    /// - Returns: the homeserver that waits.
    public func waitingOutRateLimits(within budget: MatrixWaitBudget) -> MatrixHomeserver {
        MatrixHomeserver(self, rateLimitWaits: budget)
    }

    /// The most inline waits of one call: a homeserver that answers
    /// `M_LIMIT_EXCEEDED` with a wait of 0 again and again ends the call
    /// after these instead of looping.
    static let maximumWaitsPerCall = 8

    /// The largest answer read: room lists and timelines of a few hundred
    /// events fit; a hostile server cannot make the client hold more.
    static let maximumAnswerBytes = 4 * 1024 * 1024

    /// Sends one request and returns the status and the answer's JSON (nil
    /// when the body is not a JSON object).
    /// - Parameters:
    ///   - method: the method.
    ///   - path: the path below the base URL, already percent-encoded.
    ///   - body: the request body.
    ///   - contentType: its content type.
    ///   - token: the access token, or nil for an unauthenticated call.
    ///   - cancellation: cancels the request.
    ///   - operation: what the request is, for errors.
    /// - Returns: the status and the JSON object.
    /// - Throws: ``ShareKitServerAPIInterface/APIError`` when the request could not be made or answered.
    func exchange(
        _ method: HTTPRequestMethod, _ path: String, body: HTTPRequestBody = .empty,
        contentType: String = "application/json", token: AccessToken?, cancellation: HTTPCancellation? = nil,
        operation: String
    ) async throws(APIError) -> (status: Int, json: JSONValue?, headers: HTTPFields) {
        let answer = try await exchangeAny(
            method, path, body: body, contentType: contentType, token: token, cancellation: cancellation,
            operation: operation)
        return (answer.status, answer.json, answer.headers)
    }

    /// ``exchange(_:_:body:contentType:token:cancellation:operation:)``, also
    /// reading an answer that is a JSON array (room state).
    func exchangeAny(
        _ method: HTTPRequestMethod, _ path: String, body: HTTPRequestBody = .empty,
        contentType: String = "application/json", token: AccessToken?, cancellation: HTTPCancellation? = nil,
        operation: String
    ) async throws(APIError) -> (status: Int, json: JSONValue?, array: [JSONValue]?, headers: HTTPFields) {
        var headers: HTTPFields = ["Accept": "application/json"]
        if case .empty = body {} else { headers.set("Content-Type", contentType) }
        if let token { headers.set("Authorization", "Bearer " + token.plainText) }
        let request = HTTPClientRequest(method: method, url: baseURL + path, headers: headers, body: body)
        let options = HTTPRequestOptions(
            timeouts: timeouts, maxResponseBodyBytes: Self.maximumAnswerBytes, cancellation: cancellation)
        let response: HTTPClientResponse
        do {
            response = try await client.send(request, options: options)
        } catch {
            if case .cancelled = error { throw .cancelled }
            throw APIClassifier.classify(error, operation: operation)
        }
        let json = JSONValue(strictJSON: response.body)
        return (response.status, json?.objectValue != nil ? json : nil, json?.arrayValue, response.headers)
    }

    /// The error of an answer that is not a success, from its status and
    /// Matrix error code (`errcode`): a rate limit waits `retry_after_ms`,
    /// a server error or an unreadable answer is tried again, everything
    /// else is refused, under the problem codes the reference server uses
    /// for the same refusals (`write_forbidden`, `file_too_large`).
    /// - Parameters:
    ///   - status: the HTTP status.
    ///   - json: the answer.
    ///   - operation: what the request was.
    /// - Returns: the error.
    static func failure(status: Int, json: JSONValue?, operation: String) -> APIError {
        let errcode = MatrixText.printable(json?["errcode"]?.stringValue ?? "", limit: 64)
        let error = MatrixText.printable(json?["error"]?.stringValue ?? "", limit: 300)
        if status == 429 || errcode == "M_LIMIT_EXCEEDED" {
            // Range-checked: a hostile or broken value never waits longer than an hour.
            let milliseconds = max(0, min(json?["retry_after_ms"]?.integerValue ?? 1000, 3_600_000))
            return .retryable(
                APIRetry(
                    kind: .status(429, code: "M_LIMIT_EXCEEDED"), message: "\(operation): the homeserver is busy",
                    retryAfter: .milliseconds(milliseconds)))
        }
        if status >= 500 || json == nil && !(400..<500).contains(status) {
            return .retryable(
                APIRetry(
                    kind: .status(status, code: errcode.isEmpty ? "server_error" : errcode),
                    message: "\(operation) answered \(status) \(errcode)"))
        }
        let code: String
        switch (status, errcode) {
        case (403, _): code = "write_forbidden"
        case (413, _), (_, "M_TOO_LARGE"): code = "file_too_large"
        case (404, _): code = "not_found"
        default: code = errcode.isEmpty ? "refused" : errcode
        }
        let text = error.isEmpty ? errcode : error
        return .refused(
            APIRefusal(
                operation: operation, status: status == 400 && code == "file_too_large" ? 413 : status, code: code,
                message: text.isEmpty ? "the homeserver refused it (\(status))" : text))
    }

    /// Calls the API with a session's token: an unknown or soft-logged-out
    /// token is reported to the provider, which refreshes it, and the call
    /// is made once more; refused again, the session has ended.
    /// - Parameters:
    ///   - method: the method.
    ///   - path: the path below the base URL.
    ///   - body: the request body.
    ///   - contentType: its content type.
    ///   - tokens: the session's token provider.
    ///   - cancellation: cancels the request.
    ///   - operation: what the request is, for errors.
    /// - Returns: the answer's JSON object.
    /// - Throws: ``ShareKitServerAPIInterface/APIError``.
    func authorized(
        _ method: HTTPRequestMethod, _ path: String, body: HTTPRequestBody = .empty,
        contentType: String = "application/json", tokens: any AccessTokenProvider,
        cancellation: HTTPCancellation? = nil, operation: String, acceptsArray: Bool = false
    ) async throws(APIError) -> JSONValue {
        var refreshed = false
        var waits = 0
        while true {
            let token: AccessToken
            do {
                token = try await tokens.currentAccessToken()
            } catch {
                throw Self.apiError(error)
            }
            let answer = try await exchangeAny(
                method, path, body: body, contentType: contentType, token: token, cancellation: cancellation,
                operation: operation)
            if (200..<300).contains(answer.status), let json = answer.json { return json }
            if (200..<300).contains(answer.status), acceptsArray, let array = answer.array { return .array(array) }
            if (200..<300).contains(answer.status) {
                throw .retryable(
                    APIRetry(
                        kind: .unreadableAnswer(status: answer.status),
                        message: "\(operation): the homeserver's answer could not be read"))
            }
            if answer.status == 401 {
                guard !refreshed else {
                    throw .sessionEnded("the homeserver no longer accepts this device's token; run share login")
                }
                refreshed = true
                await tokens.reportRejected(token: token)
                continue
            }
            let failure = Self.failure(status: answer.status, json: answer.json, operation: operation)
            if case .retryable(let retry) = failure, case .status(429, _) = retry.kind, let wait = retry.retryAfter,
                waits < Self.maximumWaitsPerCall, let rateLimitWaits, rateLimitWaits.take(wait)
            {
                waits += 1
                try await Self.pause(wait, cancellation: cancellation)
                continue
            }
            throw failure
        }
    }

    /// Sleeps `duration`, ended early by Ctrl-C (the cancellation) or the task's cancellation.
    private static func pause(_ duration: Duration, cancellation: HTTPCancellation?) async throws(APIError) {
        let sleeper = Task { try? await Task.sleep(for: duration) }
        let handler = cancellation?.addHandler { sleeper.cancel() }
        await withTaskCancellationHandler {
            await sleeper.value
        } onCancel: {
            sleeper.cancel()
        }
        if let handler { cancellation?.removeHandler(handler) }
        if cancellation?.isCancelled == true || Task.isCancelled { throw .cancelled }
    }

    /// ``authorized(_:_:body:contentType:tokens:cancellation:operation:acceptsArray:)``
    /// for an answer that is a JSON array.
    func authorizedArray(
        _ method: HTTPRequestMethod, _ path: String, tokens: any AccessTokenProvider, operation: String
    ) async throws(APIError) -> [JSONValue] {
        let json = try await authorized(method, path, tokens: tokens, operation: operation, acceptsArray: true)
        return json.arrayValue ?? []
    }

    /// A session error as the senders see it.
    static func apiError(_ error: SessionError) -> APIError {
        switch error {
        case .cancelled: return .cancelled
        case .retryable(let why): return .retryable(APIRetry(kind: .session, message: why))
        case .unavailable(let reason): return .sessionEnded("\(reason)")
        case .failed(let why): return .sessionEnded(why)
        }
    }

    /// A JSON body.
    static func body(_ value: JSONValue) -> HTTPRequestBody {
        var writer = JSONWriter()
        writer.value(value)
        return .bytes(writer.bytes)
    }

    /// A path segment percent-encoded (room ids, aliases and transaction ids
    /// carry `!`, `#`, `:` and whatever a hostile server put in them).
    static func segment(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E, 0x5F, 0x7E: out.unicodeScalars.append(.init(byte))
            default:
                let hex = Array("0123456789ABCDEF")
                out += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0xF)])
            }
        }
        return out
    }
}

/// The time one share may spend waiting out a homeserver's rate limits
/// inline (see ``MatrixHomeserver/waitingOutRateLimits(within:)``), shared
/// by its uploads and its events.
public final class MatrixWaitBudget: Sendable {
    private let left: Mutex<Duration>

    /// - Parameter total: the share's budget.
    public init(total: Duration) {
        left = Mutex(total)
    }

    /// Takes `wait` from the budget when it fits.
    /// - Parameter wait: the homeserver's `retry_after_ms`.
    /// - Returns: true when the caller waits; false when the budget is too small (nothing is taken).
    public func take(_ wait: Duration) -> Bool {
        left.withLock { left in
            guard wait <= left else { return false }
            left -= wait
            return true
        }
    }
}

/// Text from a homeserver, made safe to show: control characters go, and
/// its length is bounded.
enum MatrixText {
    /// The text without control characters, at most `limit` characters.
    static func printable(_ text: String, limit: Int) -> String {
        String(
            String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }).prefix(limit))
    }
}
