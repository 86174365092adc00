import Dispatch
import Glibc
import HTTPServerInterface
import HTTPTypes
import Synchronization

/// Keeps clients from holding connections they do not use: a deadline for
/// each request head that a trickle of bytes does not extend, and room made
/// for new connections by closing the one that has waited longest for its
/// head. libmicrohttpd only knows an idle timeout, which every byte resets,
/// and at its connection limit it stops accepting, so a few hundred
/// connections that send one byte every 20 s would lock everyone out.
///
/// It follows every connection from `MHD_CONNECTION_NOTIFY_STARTED` to
/// `MHD_CONNECTION_NOTIFY_CLOSED`. A connection is closed from outside its
/// thread with `shutdown(2)` on its socket: the connection's thread then
/// sees the end of the stream and libmicrohttpd closes it the usual way.
/// The socket is touched only under the lock that the close notification
/// takes too, and libmicrohttpd closes the descriptor after that
/// notification, so a descriptor number is never used after its reuse.
final class ConnectionGuard: Sendable {
    /// Where a connection is.
    enum Phase {
        /// Waiting for the first request's head.
        case fresh
        /// Waiting for the head of a later request (kept alive).
        case reused
        /// The request line arrived; the header fields did not yet.
        case head
        /// The head is complete; a request is being served.
        case request
        /// Closed by this guard; libmicrohttpd has not noticed yet.
        case closing
    }

    /// What the access handler does with a complete head.
    enum Verdict {
        /// Serve it.
        case proceed
        /// Answer `503 server_busy`: the connection came in over the limit.
        case refuse
        /// Drop it: the guard closed the connection already.
        case closed
    }

    private struct Entry {
        var fd: Int32
        var phase: Phase
        var since: ContinuousClock.Instant
        var refused: Bool
        var closeReason: String?
    }

    private struct State {
        var entries: [UInt: Entry] = [:]
    }

    private let state = Mutex(State())
    private let maxConnections: Int
    private let headTimeout: Duration
    private let answersRaw: Bool
    private let timeoutAnswer: [UInt8]
    private let busyAnswer: [UInt8]
    private let sweeping = Atomic<Bool>(false)
    private let stopRequest = DispatchSemaphore(value: 0)
    private let sweeperDone = DispatchSemaphore(value: 0)

    /// Makes the guard of one daemon.
    /// - Parameters:
    ///   - configuration: the limits (``HTTPServerInterface/HTTPServerConfiguration/maxConnections``,
    ///     ``HTTPServerInterface/HTTPServerConfiguration/requestHeadTimeout``,
    ///     ``HTTPServerInterface/HTTPServerConfiguration/busyRetryAfterSeconds``).
    ///   - secure: whether the daemon serves TLS (then nothing is written to
    ///     a socket from here: the bytes would not be TLS records).
    init(configuration: HTTPServerConfiguration, secure: Bool) {
        maxConnections = configuration.maxConnections
        headTimeout = configuration.requestHeadTimeout
        answersRaw = !secure
        timeoutAnswer = Self.rawAnswer(
            Self.headTimeoutProblem(configuration.requestHeadTimeout), reason: "Request Timeout")
        busyAnswer = Self.rawAnswer(
            Self.busyProblem, reason: "Service Unavailable",
            extra: "Retry-After: \(configuration.busyRetryAfterSeconds)\r\n")
    }

    // MARK: - Problems

    /// The `503` problem for a connection over the limit.
    static let busyProblem = HTTPProblem(
        status: .serviceUnavailable, code: "server_busy", title: "Service Unavailable",
        detail: "The server has no free connection; retry after the time in Retry-After.")

    /// The `408` problem for a head not complete in time.
    /// - Parameter timeout: the deadline.
    static func headTimeoutProblem(_ timeout: Duration) -> HTTPProblem {
        HTTPProblem(
            status: .requestTimeout, code: "request_head_timeout", title: "Request Timeout",
            detail: "The request head was not complete within \(timeout.components.seconds) s.")
    }

    /// A whole HTTP/1.1 answer, for a socket libmicrohttpd has not answered
    /// on (it is still waiting for the head, so it writes nothing itself).
    private static func rawAnswer(_ problem: HTTPProblem, reason: String, extra: String = "") -> [UInt8] {
        let body = problem.jsonBytes
        let head =
            "HTTP/1.1 \(problem.status.rawValue) \(reason)\r\nContent-Type: application/problem+json\r\n"
            + "Content-Length: \(body.count)\r\n\(extra)Connection: close\r\n\r\n"
        return Array(head.utf8) + body
    }

    // MARK: - Sweeping

    /// Starts checking the head deadlines on a queue of its own, every
    /// quarter of the deadline (at most every 250 ms).
    func startSweeping() {
        let quarter = headTimeout / 4
        let interval = min(max(quarter, .milliseconds(10)), .milliseconds(250))
        let nanos =
            Int(interval.components.seconds) * 1_000_000_000 + Int(interval.components.attoseconds / 1_000_000_000)
        sweeping.store(true, ordering: .relaxed)
        DispatchQueue(label: "MicroHTTPServer.ConnectionGuard").async { [self] in
            while stopRequest.wait(timeout: .now() + .nanoseconds(nanos)) == .timedOut { sweep() }
            sweeperDone.signal()
        }
    }

    /// Stops the checks and waits until none runs any more.
    func stopSweeping() {
        guard sweeping.exchange(false, ordering: .relaxed) else { return }
        stopRequest.signal()
        sweeperDone.wait()
    }

    /// Closes every connection whose head is overdue.
    func sweep() {
        let now = ContinuousClock.now
        state.withLock { state in
            for (key, entry) in state.entries
            where entry.phase != .request && entry.phase != .closing && entry.since + headTimeout <= now {
                close(
                    key, in: &state, answer: entry.phase == .reused ? nil : timeoutAnswer,
                    reason: "closed: the request head was not complete within \(headTimeout.components.seconds) s")
            }
        }
    }

    // MARK: - Notifications

    /// A connection was accepted (`MHD_CONNECTION_NOTIFY_STARTED`, on the
    /// accepting thread). Over ``HTTPServerInterface/HTTPServerConfiguration/maxConnections``
    /// the connection waiting longest for its head is closed with a `503`;
    /// when none waits, the new one is marked to be refused.
    /// - Parameters:
    ///   - connection: the connection's address, as a key.
    ///   - fd: its socket.
    func opened(_ connection: UInt, fd: Int32) {
        state.withLock { state in
            state.entries[connection] = Entry(fd: fd, phase: .fresh, since: .now, refused: false)
            let open = state.entries.values.count { $0.phase != .closing && !$0.refused }
            guard open > maxConnections else { return }
            let waiting = state.entries.filter { key, entry in
                key != connection && (entry.phase == .fresh || entry.phase == .reused || entry.phase == .head)
                    && !entry.refused
            }
            if let oldest = waiting.min(by: { $0.value.since < $1.value.since }) {
                close(
                    oldest.key, in: &state, answer: oldest.value.phase == .reused ? nil : busyAnswer,
                    reason: "closed: the server was full and this connection had waited longest for its request head")
            } else {
                state.entries[connection]?.refused = true
            }
        }
    }

    /// The connection is gone (`MHD_CONNECTION_NOTIFY_CLOSED`; libmicrohttpd
    /// closes the socket after this returns).
    /// - Parameter connection: the connection's key.
    func closed(_ connection: UInt) {
        _ = state.withLock { $0.entries.removeValue(forKey: connection) }
    }

    /// The request line arrived.
    /// - Parameter connection: the connection's key.
    func requestLineArrived(_ connection: UInt) {
        state.withLock { state in
            guard let entry = state.entries[connection], entry.phase == .fresh || entry.phase == .reused else {
                return
            }
            state.entries[connection]?.phase = .head
        }
    }

    /// The head is complete: decides what happens to the request.
    /// - Parameter connection: the connection's key.
    /// - Returns: the verdict.
    func headArrived(_ connection: UInt) -> Verdict {
        state.withLock { state in
            guard let entry = state.entries[connection] else { return .proceed }
            if entry.phase == .closing { return .closed }
            state.entries[connection]?.phase = .request
            return entry.refused ? .refuse : .proceed
        }
    }

    /// A request ended; the connection may carry another one, whose head
    /// has its own deadline from now.
    /// - Parameter connection: the connection's key.
    /// - Returns: why the guard closed the connection, if it did.
    func requestEnded(_ connection: UInt) -> String? {
        state.withLock { state in
            guard let entry = state.entries[connection] else { return nil }
            if entry.phase == .closing { return entry.closeReason }
            state.entries[connection]?.phase = .reused
            state.entries[connection]?.since = .now
            return nil
        }
    }

    /// Connections known to the guard, closed or not; for tests.
    var count: Int { state.withLock { $0.entries.count } }

    // MARK: - Closing

    private func close(_ key: UInt, in state: inout State, answer: [UInt8]?, reason: String) {
        guard let entry = state.entries[key] else { return }
        state.entries[key]?.phase = .closing
        state.entries[key]?.closeReason = reason
        if answersRaw, let answer {
            // Never blocks: a client that does not read loses the answer.
            _ = answer.withUnsafeBytes {
                Glibc.send(entry.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
            }
        }
        _ = shutdown(entry.fd, Int32(SHUT_RDWR))
    }
}
