import CShareKitMicroHTTPD
import CShareKitMicroHTTPDShim
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import Synchronization

/// What the libmicrohttpd callbacks of one running daemon share: the
/// handler, the configuration, the in-flight count and the stop flag. One
/// is made per start; the running daemon holds it until `MHD_stop_daemon`
/// has returned, so the unretained pointer the callbacks get stays valid.
final class ServerCore: Sendable {
    /// The application's handler.
    let handler: any HTTPRequestHandler
    /// Limits and hooks.
    let configuration: HTTPServerConfiguration
    /// Whether the daemon serves TLS.
    let isSecure: Bool
    /// Request ids.
    let requestIDs = RequestIDGenerator()
    /// Requests between request line and completion.
    let inFlight = InFlightRequests()
    /// Set when a graceful stop begins: responses then close their connection.
    let stopping = Atomic<Bool>(false)
    /// Set when the grace period is over and the daemon closes every
    /// connection: requests cut off from then on ended because of the stop
    /// (libmicrohttpd reports them as read errors).
    let closingConnections = Atomic<Bool>(false)
    /// Head and body deadlines, and room for new connections.
    let connections: ConnectionGuard
    /// The bytes of large in-memory answers libmicrohttpd holds.
    let responseMemory: ResponseMemory
    /// Engine messages seen while starting, for the start error.
    private let startMessages = Mutex<[String]>([])
    private let starting = Atomic<Bool>(true)

    /// Makes the shared state of a daemon.
    /// - Parameters:
    ///   - handler: the application's handler.
    ///   - configuration: limits and hooks.
    init(handler: any HTTPRequestHandler, configuration: HTTPServerConfiguration) {
        self.handler = handler
        self.configuration = configuration
        self.isSecure = configuration.tls != nil
        self.connections = ConnectionGuard(configuration: configuration, secure: configuration.tls != nil)
        self.responseMemory = ResponseMemory(limit: configuration.maxBufferedResponseBytes)
    }

    // MARK: - Engine messages

    /// A message from libmicrohttpd: to the diagnostics hook, and kept while
    /// starting so a failed start can say why.
    /// - Parameter message: the formatted message.
    func engineMessage(_ message: String) {
        let trimmed = String(message.reversed().drop { $0 == "\n" }.reversed())
        if starting.load(ordering: .relaxed) {
            startMessages.withLock { $0.append(trimmed) }
        }
        configuration.diagnostics?(trimmed)
    }

    /// Ends the start phase.
    /// - Returns: the messages logged while starting.
    func finishStarting() -> [String] {
        starting.store(false, ordering: .relaxed)
        return startMessages.withLock { messages in
            defer { messages.removeAll() }
            return messages
        }
    }

    // MARK: - Request lifecycle

    /// libmicrohttpd found a `Content-Length` it cannot use and is about to
    /// answer with its status line and header fields sent twice: the engine
    /// answers first with a problem and closes the connection, so
    /// libmicrohttpd's answer is never sent.
    /// - Parameters:
    ///   - connection: the connection's key.
    ///   - tooLarge: the value is a number too large for 64 bits (else it is not a number).
    func malformedContentLength(connection: UInt, tooLarge: Bool) {
        let problem =
            tooLarge
            ? HTTPProblem(
                status: .contentTooLarge, code: "body_too_large", title: "Content Too Large",
                detail: "The Content-Length is larger than any body this server accepts.")
            : HTTPProblem(
                status: .badRequest, code: "bad_request", title: "Bad Request",
                detail: "The Content-Length is not a decimal number.")
        connections.answerAndClose(
            connection, problem: problem, reason: tooLarge ? "Content Too Large" : "Bad Request",
            failure: "refused: a Content-Length that is \(tooLarge ? "too large" : "not a decimal number")")
    }

    /// The request line arrived (URI log callback): make its state.
    /// - Parameters:
    ///   - uri: the request target as sent.
    ///   - connection: the connection's key for the ``ConnectionGuard``.
    /// - Returns: the retained state, for `*con_cls`.
    func begin(uri: String, connection: UInt) -> UnsafeMutableRawPointer {
        inFlight.enter()
        connections.requestLineArrived(connection)
        let request = RequestContext(requestID: requestIDs.next(), target: uri, connection: connection)
        return Unmanaged.passRetained(request).toOpaque()
    }

    /// The request ended (completion callback): abort an unfinished sink,
    /// write the log record and release the state.
    /// - Parameters:
    ///   - request: the state made by ``begin(uri:)``, released here.
    ///   - termination: libmicrohttpd's reason.
    func complete(_ request: RequestContext, termination: MHD_RequestTerminationCode) {
        var outcome: HTTPRequestOutcome
        switch termination {
        case .REQUEST_TERMINATED_COMPLETED_OK: outcome = .completed
        case .REQUEST_TERMINATED_TIMEOUT_REACHED: outcome = .timedOut
        case .REQUEST_TERMINATED_DAEMON_SHUTDOWN: outcome = .serverStopped
        default: outcome = .clientDisconnected
        }
        if outcome != .completed, closingConnections.load(ordering: .relaxed) { outcome = .serverStopped }
        if let closure = connections.requestEnded(request.connection), outcome != .serverStopped {
            if let closed = closure.outcome { outcome = closed }
            if let status = closure.status { request.status = status }
            if request.failure == nil { request.failure = closure.reason }
        }
        if case .streaming(let sink) = request.phase {
            request.phase = .responded
            let reason: HTTPBodyAbortReason
            switch outcome {
            case .timedOut: reason = .timedOut
            case .serverStopped: reason = .serverStopped
            case .completed, .clientDisconnected: reason = .clientDisconnected
            }
            sink.abort(reason)
        }
        if let log = configuration.requestLog {
            if request.head == nil, request.status == nil, request.failure == nil {
                request.failure = "answered by the engine before the handler (malformed or oversized head)"
            }
            log(
                HTTPRequestLogRecord(
                    requestID: request.requestID, method: request.head?.method,
                    route: request.routeTemplate ?? request.pathForLog,
                    status: request.status,
                    duration: request.started.duration(to: .now), bodyBytes: request.bodyBytes, outcome: outcome,
                    failure: request.failure))
        }
        inFlight.leave()
    }
}
