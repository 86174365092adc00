public import ShareKitHTTPTypes
public import ShareKitServerAPIInterface
import Synchronization

/// The test double of ``ShareKitServerAPIInterface/AuthorizedAPIClient``: answers
/// each call from a script, as the real client would after its session,
/// DPoP and classification work, and records every request.
///
/// A call is answered by, in this order:
/// 1. the first rule added with ``answer(operation:with:)`` whose operation
///    (`createMessage`, `listSpaces`, ...) matches and that still has
///    outcomes (each outcome is used once);
/// 2. the next outcome of the script given to ``init(origin:_:whenExhausted:)``;
/// 3. `whenExhausted` once the script is used up.
///
/// Failures are scripted as the ``ShareKitServerAPIInterface/APIError`` the real
/// client would throw (`.retryable` for a 503, `.refused` for a 4xx,
/// `.sessionEnded` for a session that cannot be refreshed):
///
/// ```swift
/// let api = ScriptedAPIClient([.json(201, #"{"id":"m1"}"#)])
/// api.answer(operation: "listSpaces", with: [.failure(.sessionEnded("signed out"))])
/// ```
public final class ScriptedAPIClient: AuthorizedAPIClient {
    /// One call as it was made.
    public struct Call: Sendable {
        /// The request.
        public let request: APIRequest
        /// Whether the call carried a cancellation (a person can interrupt it).
        public let cancellable: Bool
        /// The response body limit it asked for, if any.
        public let maxResponseBodyBytes: Int?
    }

    private struct State {
        var script: [Result<APIResponse, APIError>]
        var rules: [(operation: String, outcomes: [Result<APIResponse, APIError>])] = []
        var calls: [Call] = []
    }

    /// The server's origin the scripted answers pretend to come from.
    public let origin: String
    private let state: Mutex<State>
    private let exhausted: Result<APIResponse, APIError>

    /// Makes a client that answers from a script.
    /// - Parameters:
    ///   - origin: the origin it reports (``AuthorizedAPIClient/origin``).
    ///   - script: the outcomes, in order, one per call.
    ///   - whenExhausted: the outcome of every call after the script; by
    ///     default a retryable network failure, as when the server is gone.
    public init(
        origin: String = "https://chat.example",
        _ script: [Result<APIResponse, APIError>] = [],
        whenExhausted: Result<APIResponse, APIError> = .failure(
            .retryable(APIRetry(kind: .network, message: "the script has no more answers")))
    ) {
        self.origin = origin
        state = Mutex(State(script: script))
        exhausted = whenExhausted
    }

    /// Answers calls of `operation` with these outcomes, one each, before
    /// the script is consulted.
    /// - Parameters:
    ///   - operation: the request's operation name (``ShareKitServerAPIInterface/APIRequest/operation``).
    ///   - outcomes: the outcomes, in order.
    public func answer(operation: String, with outcomes: [Result<APIResponse, APIError>]) {
        state.withLock { $0.rules.append((operation, outcomes)) }
    }

    /// Every call made so far, in order.
    public var calls: [Call] { state.withLock { $0.calls } }

    /// The requests sent so far, in order.
    public var requests: [APIRequest] { calls.map(\.request) }

    /// The operations called so far, in order (`["listSpaces", "searchThreadTitles"]`).
    public var operations: [String] { calls.map(\.request.operation) }

    /// Answers a call from the rules, the script or `whenExhausted`.
    /// - Parameters:
    ///   - request: the request.
    ///   - options: its options (recorded: cancellation and body limit).
    /// - Returns: the scripted answer.
    /// - Throws: the scripted ``ShareKitServerAPIInterface/APIError``.
    public func send(_ request: APIRequest, options: APICallOptions) async throws(APIError) -> APIResponse {
        let next = state.withLock { state -> Result<APIResponse, APIError> in
            state.calls.append(
                Call(
                    request: request, cancellable: options.cancellation != nil,
                    maxResponseBodyBytes: options.maxResponseBodyBytes))
            if let index = state.rules.firstIndex(where: { $0.operation == request.operation && !$0.outcomes.isEmpty })
            {
                return state.rules[index].outcomes.removeFirst()
            }
            if !state.script.isEmpty { return state.script.removeFirst() }
            return exhausted
        }
        return try next.get()
    }
}

extension Result where Success == APIResponse, Failure == APIError {
    /// A successful answer with a JSON body.
    /// - Parameters:
    ///   - status: the status code (a success: the real client throws for others).
    ///   - text: the body.
    ///   - headers: extra header fields (a JSON `Content-Type` is added).
    /// - Returns: the outcome.
    public static func json(_ status: Int, _ text: String, headers: HTTPFields = [:]) -> Self {
        var fields = headers
        if fields["Content-Type"] == nil { fields.set("Content-Type", "application/json") }
        return .success(APIResponse(status: status, headers: fields, body: Array(text.utf8)))
    }

    /// The refusal the real client throws for a 4xx problem answer.
    /// - Parameters:
    ///   - operation: the operation refused.
    ///   - status: the status code.
    ///   - code: the problem's code (`thread_not_found`).
    ///   - message: the problem's detail.
    /// - Returns: the outcome.
    public static func refused(_ operation: String, status: Int, code: String, message: String = "refused") -> Self {
        .failure(.refused(APIRefusal(operation: operation, status: status, code: code, message: message)))
    }

    /// The retryable failure the real client throws for a 5xx or 429 answer.
    /// - Parameters:
    ///   - status: the status code.
    ///   - code: the problem's code, empty when the answer had none.
    ///   - retryAfter: the server's `Retry-After`, if it sent one.
    /// - Returns: the outcome.
    public static func unavailable(_ status: Int, code: String = "", retryAfter: Duration? = nil) -> Self {
        .failure(
            .retryable(
                APIRetry(
                    kind: .status(status, code: code), message: "the server answered \(status)",
                    retryAfter: retryAfter)))
    }
}
