public import ShareKitHTTPInterface
public import ShareKitHTTPTypes
import Synchronization

/// The one test double of ``ShareKitHTTPInterface/DPoPSigningHTTPClient`` (and so of
/// ``ShareKitHTTPInterface/HTTPClient``): answers each request from a script, records
/// what was sent, and can pass what the script does not cover to a real client.
///
/// A request is answered by, in this order:
/// 1. the first rule added with ``answer(urlSuffix:with:)`` whose URL suffix
///    matches and that still has outcomes (each outcome is used once);
/// 2. the next outcome of the script given to ``init(_:whenExhausted:)``;
/// 3. what ``Exhausted`` says once the script is used up.
///
/// ```swift
/// let client = ScriptedHTTPClient([.json(201, #"{"id":"m1"}"#)], whenExhausted: .repeatLast)
/// let flaky = ScriptedHTTPClient(whenExhausted: .passThrough(realClient))
/// flaky.answer(urlSuffix: "/parts/3", with: [.failure(.connectionLost("cut by the test"))])
/// ```
public final class ScriptedHTTPClient: DPoPSigningHTTPClient {
    /// What answers once the script is used up.
    public enum Exhausted: Sendable {
        /// The script's last outcome answers again (a failure when the script was empty).
        case repeatLast
        /// Every further request gets this outcome.
        case answer(Result<HTTPClientResponse, HTTPClientError>)
        /// Every further request goes to this client.
        case passThrough(any DPoPSigningHTTPClient)
    }

    /// One request as it was sent.
    public struct SentRequest: Sendable {
        /// The request.
        public let request: HTTPClientRequest
        /// The access token it was sent with (`nil` for an unauthenticated request).
        public let accessToken: String?
    }

    private struct State {
        var script: [Result<HTTPClientResponse, HTTPClientError>]
        var last: Result<HTTPClientResponse, HTTPClientError>?
        var rules: [(suffix: String, outcomes: [Result<HTTPClientResponse, HTTPClientError>])] = []
        var sent: [SentRequest] = []
    }

    private let state: Mutex<State>
    private let exhausted: Exhausted

    /// Makes a client that answers from a script.
    /// - Parameters:
    ///   - script: the outcomes, in order, one per request.
    ///   - whenExhausted: what answers after the script; by default `cannotConnect`.
    public init(
        _ script: [Result<HTTPClientResponse, HTTPClientError>] = [],
        whenExhausted: Exhausted = .answer(.failure(.cannotConnect("the script has no more answers")))
    ) {
        state = Mutex(State(script: script))
        exhausted = whenExhausted
    }

    /// Answers requests whose URL ends with `urlSuffix` with these outcomes, one
    /// each, before the script is consulted.
    /// - Parameters:
    ///   - urlSuffix: the end of the URL (`/parts/3`, `/v1/messages`).
    ///   - outcomes: the outcomes, in order.
    public func answer(urlSuffix: String, with outcomes: [Result<HTTPClientResponse, HTTPClientError>]) {
        state.withLock { $0.rules.append((urlSuffix, outcomes)) }
    }

    /// Every request sent so far, in order.
    public var sent: [SentRequest] { state.withLock { $0.sent } }

    /// The requests sent so far, in order.
    public var requests: [HTTPClientRequest] { sent.map(\.request) }

    /// How many requests were sent.
    public var requestCount: Int { state.withLock { $0.sent.count } }

    /// Sends an unauthenticated request; see ``send(_:accessToken:options:)``.
    /// - Parameters:
    ///   - request: the request.
    ///   - options: its options.
    /// - Returns: the scripted response.
    /// - Throws: the scripted failure.
    public func send(_ request: HTTPClientRequest, options: HTTPRequestOptions) async throws(HTTPClientError)
        -> HTTPClientResponse
    {
        try await send(request, accessToken: nil, options: options)
    }

    /// Answers a request from the rules, the script or what comes after it.
    /// - Parameters:
    ///   - request: the request.
    ///   - accessToken: the access token it is sent with.
    ///   - options: its options.
    /// - Returns: the scripted response.
    /// - Throws: the scripted failure.
    public func send(_ request: HTTPClientRequest, accessToken: String?, options: HTTPRequestOptions)
        async throws(HTTPClientError) -> HTTPClientResponse
    {
        let next = state.withLock { state -> Result<HTTPClientResponse, HTTPClientError>? in
            state.sent.append(SentRequest(request: request, accessToken: accessToken))
            if let index = state.rules.firstIndex(where: { request.url.hasSuffix($0.suffix) && !$0.outcomes.isEmpty }) {
                return state.rules[index].outcomes.removeFirst()
            }
            if !state.script.isEmpty {
                let outcome = state.script.removeFirst()
                state.last = outcome
                return outcome
            }
            switch exhausted {
            case .repeatLast: return state.last ?? .failure(.cannotConnect("the script is empty"))
            case .answer(let outcome): return outcome
            case .passThrough: return nil
            }
        }
        if let next { return try next.get() }
        guard case .passThrough(let inner) = exhausted else { throw .cannotConnect("unreachable") }
        return try await inner.send(request, accessToken: accessToken, options: options)
    }
}

extension Result where Success == HTTPClientResponse, Failure == HTTPClientError {
    /// A response with a JSON body.
    /// - Parameters:
    ///   - status: the status code.
    ///   - text: the body.
    ///   - headers: extra header fields (a JSON `Content-Type` is added).
    /// - Returns: the outcome.
    public static func json(_ status: Int, _ text: String, headers: HTTPFields = [:]) -> Self {
        var fields = headers
        if fields["Content-Type"] == nil { fields.set("Content-Type", "application/json") }
        return .success(HTTPClientResponse(status: status, headers: fields, body: Array(text.utf8)))
    }

    /// A response without a `Content-Type`, as some tests' servers answer.
    /// - Parameters:
    ///   - status: the status code.
    ///   - text: the body.
    ///   - headers: the header fields.
    /// - Returns: the outcome.
    public static func raw(_ status: Int, _ text: String, headers: HTTPFields = [:]) -> Self {
        .success(HTTPClientResponse(status: status, headers: headers, body: Array(text.utf8)))
    }
}
