import ShareKitHTTPServerInterface
import ShareKitHTTPTypes

/// The state of one request, from its request line to its completion. It
/// travels through libmicrohttpd as the request's `*con_cls` pointer
/// (retained in the URI callback, released in the completion callback).
///
/// Not `Sendable` and needs no lock: libmicrohttpd runs every callback of a
/// request on that connection's thread, one after another.
final class RequestContext {
    /// The engine's id for the request.
    let requestID: String
    /// The request target exactly as sent.
    let target: String
    /// The connection's key for the ``ConnectionGuard``.
    let connection: UInt
    /// When the request line arrived.
    let started: ContinuousClock.Instant
    /// The head, once the header fields are complete.
    var head: HTTPRequestHead?
    /// Where the request is.
    var phase: RequestPhase = .awaitingHead
    /// The buffered body.
    var body: [UInt8] = []
    /// Body bytes received, kept or not.
    var bodyBytes: UInt64 = 0
    /// Body bytes read and dropped after a refusal.
    var discardedBytes = 0
    /// The status queued.
    var status: HTTPStatus?
    /// The handler's route template for the log.
    var routeTemplate: String?
    /// The description of an error the engine turned into a 500, or why the
    /// engine closed the connection, for the log.
    var failure: String?

    /// Starts the state of a request.
    /// - Parameters:
    ///   - requestID: the engine's id.
    ///   - target: the request target as sent.
    ///   - connection: the connection's key.
    init(requestID: String, target: String, connection: UInt) {
        self.requestID = requestID
        self.target = target
        self.connection = connection
        self.started = .now
    }

    /// The path for the log when the handler gave no route: the target
    /// without its query, which may carry secrets.
    var pathForLog: String {
        if let head { return head.path }
        return String(target.prefix { $0 != "?" })
    }
}
