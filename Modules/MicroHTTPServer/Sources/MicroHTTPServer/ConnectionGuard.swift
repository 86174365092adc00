import Dispatch
import Glibc
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import Synchronization

/// Keeps clients from holding connections they do not use: a deadline for
/// each request head and for each request body that a trickle of bytes does
/// not extend, and room made for new connections by closing connections
/// that are not being answered, those of an address holding more than its
/// share first. libmicrohttpd only knows an idle timeout, which every byte
/// resets, and at its connection limit it stops accepting, so a few hundred
/// connections that send one byte every 20 s (of a head or of a body) would
/// lock everyone out.
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
        /// The head was accepted; the body is being read.
        case body
        /// The body is complete; the handler is making the answer.
        case handling
        /// The answer is queued and being sent.
        case responding
        /// Closed by this guard; libmicrohttpd has not noticed yet.
        case closing

        /// Whether the connection waits for a request head.
        var awaitsHead: Bool { self == .fresh || self == .reused || self == .head }

        /// How readily the connection is closed to make room (lower first),
        /// nil when it is not: a handler at work is never interrupted (its
        /// thread could not be stopped anyway).
        var closingRank: Int? {
            switch self {
            case .fresh, .reused, .head: return 0
            case .body: return 1
            case .responding: return 2
            case .handling, .closing: return nil
            }
        }
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

    /// Why the guard closed a connection, for the request's log record.
    struct Closure {
        /// The failure to log.
        let reason: String
        /// The outcome to log, nil to keep the one libmicrohttpd reported.
        let outcome: HTTPRequestOutcome?
        /// The status the guard answered with, nil when it wrote none.
        let status: HTTPStatus?
    }

    private struct Entry {
        var fd: Int32
        /// The client's IP address (no port); empty when unknown.
        var address: String
        var phase: Phase
        /// When the current phase began: the head and body deadlines count from here.
        var since: ContinuousClock.Instant
        var bodyBytes: Int = 0
        var refused = false
        var closure: Closure?
    }

    private struct State {
        var entries: [UInt: Entry] = [:]
    }

    private let state = Mutex(State())
    private let maxConnections: Int
    private let headTimeout: Duration
    private let bodyTimeout: Duration
    private let minimumBodyRate: Int
    private let answersRaw: Bool
    private let headTimeoutAnswer: [UInt8]
    private let bodyTimeoutAnswer: [UInt8]
    private let busyAnswer: [UInt8]
    private let sweeping = Atomic<Bool>(false)
    private let stopRequest = DispatchSemaphore(value: 0)
    private let sweeperDone = DispatchSemaphore(value: 0)

    /// Makes the guard of one daemon.
    /// - Parameters:
    ///   - configuration: the limits (``ShareKitHTTPServerInterface/HTTPServerConfiguration/maxConnections``,
    ///     ``ShareKitHTTPServerInterface/HTTPServerConfiguration/requestHeadTimeout``,
    ///     ``ShareKitHTTPServerInterface/HTTPServerConfiguration/requestBodyTimeout``,
    ///     ``ShareKitHTTPServerInterface/HTTPServerConfiguration/minimumBodyRate``,
    ///     ``ShareKitHTTPServerInterface/HTTPServerConfiguration/busyRetryAfterSeconds``).
    ///   - secure: whether the daemon serves TLS (then nothing is written to
    ///     a socket from here: the bytes would not be TLS records).
    init(configuration: HTTPServerConfiguration, secure: Bool) {
        maxConnections = configuration.maxConnections
        headTimeout = configuration.requestHeadTimeout
        bodyTimeout = configuration.requestBodyTimeout
        minimumBodyRate = configuration.minimumBodyRate
        answersRaw = !secure
        headTimeoutAnswer = Self.rawAnswer(
            Self.headTimeoutProblem(configuration.requestHeadTimeout), reason: "Request Timeout")
        bodyTimeoutAnswer = Self.rawAnswer(
            Self.bodyTimeoutProblem(configuration.requestBodyTimeout, rate: configuration.minimumBodyRate),
            reason: "Request Timeout")
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

    /// The `408` problem for a body that fell behind the minimum rate.
    /// - Parameters:
    ///   - timeout: the body's slack.
    ///   - rate: the minimum rate, bytes per second.
    static func bodyTimeoutProblem(_ timeout: Duration, rate: Int) -> HTTPProblem {
        HTTPProblem(
            status: .requestTimeout, code: "request_body_timeout", title: "Request Timeout",
            detail:
                "The request body arrived slower than \(rate) bytes per second after the first "
                + "\(timeout.components.seconds) s.")
    }

    /// A whole HTTP/1.1 answer, for a socket libmicrohttpd has not answered
    /// on (it is still reading the request, so it writes nothing itself).
    /// - Parameters:
    ///   - problem: the answer's problem document.
    ///   - reason: the reason phrase.
    ///   - extra: more header lines, each ending in CR LF.
    static func rawAnswer(_ problem: HTTPProblem, reason: String, extra: String = "") -> [UInt8] {
        let body = problem.jsonBytes
        let head =
            "HTTP/1.1 \(problem.status.rawValue) \(reason)\r\nContent-Type: application/problem+json\r\n"
            + "Content-Length: \(body.count)\r\n\(extra)Connection: close\r\n\r\n"
        return Array(head.utf8) + body
    }

    // MARK: - Sweeping

    /// Starts checking the head and body deadlines on a queue of its own,
    /// every quarter of the shorter deadline (at most every 250 ms).
    func startSweeping() {
        let quarter = min(headTimeout, bodyTimeout) / 4
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

    /// Closes every connection whose head or body is overdue.
    func sweep() {
        let now = ContinuousClock.now
        state.withLock { state in
            for (key, entry) in state.entries {
                if entry.phase.awaitsHead, entry.since + headTimeout <= now {
                    close(
                        key, in: &state, answer: entry.phase == .reused ? nil : headTimeoutAnswer,
                        reason: "closed: the request head was not complete within \(headTimeout.components.seconds) s")
                } else if entry.phase == .body, bodyDeadline(entry) <= now {
                    close(
                        key, in: &state, answer: bodyTimeoutAnswer,
                        reason:
                            "closed: the request body arrived slower than \(minimumBodyRate) bytes per second "
                            + "(\(entry.bodyBytes) bytes in \(entry.since.duration(to: now)))")
                }
            }
        }
    }

    /// When a body that has brought `bodyBytes` so far falls behind: the
    /// slack, plus the time the bytes that arrived buy at the minimum rate.
    private func bodyDeadline(_ entry: Entry) -> ContinuousClock.Instant {
        entry.since + bodyTimeout + .seconds(Double(entry.bodyBytes) / Double(minimumBodyRate))
    }

    // MARK: - Notifications

    /// A connection was accepted (`MHD_CONNECTION_NOTIFY_STARTED`, on the
    /// accepting thread). Over ``ShareKitHTTPServerInterface/HTTPServerConfiguration/maxConnections``
    /// another connection is closed to make room (see ``victim(of:newcomer:)``);
    /// when none can be, the new one is marked to be refused.
    /// - Parameters:
    ///   - connection: the connection's address, as a key.
    ///   - fd: its socket.
    ///   - address: the client's IP address, without the port.
    func opened(_ connection: UInt, fd: Int32, address: String) {
        state.withLock { state in
            state.entries[connection] = Entry(fd: fd, address: address, phase: .fresh, since: .now)
            let open = state.entries.filter { $0.value.phase != .closing && !$0.value.refused }
            guard open.count > maxConnections else { return }
            guard let key = Self.victim(of: open, newcomer: connection, maxConnections: maxConnections),
                let victim = open[key]
            else {
                state.entries[connection]?.refused = true
                return
            }
            let answer = victim.phase == .reused || victim.phase == .responding ? nil : busyAnswer
            close(
                key, in: &state, answer: answer,
                reason: victim.phase.awaitsHead
                    ? "closed: the server was full and this connection had waited longest for its request head"
                    : "closed: the server was full and this client address held more than its share of connections")
        }
    }

    /// The connection to close so that `newcomer` has room, nil when none
    /// may be closed.
    ///
    /// First, connections of the address holding the most connections, if
    /// it holds more than its share (`maxConnections` divided by the
    /// addresses connected, at least one): waiting for a head, then reading
    /// a body, then being sent an answer, the oldest first. A client that
    /// opens many connections and trickles heads or bodies from a few
    /// addresses thus gives way to every other address. Else the connection
    /// that has waited longest for its request head, of any address.
    /// Connections whose handler is at work are never closed.
    private static func victim(of open: [UInt: Entry], newcomer: UInt, maxConnections: Int) -> UInt? {
        var counts: [String: Int] = [:]
        for entry in open.values { counts[entry.address, default: 0] += 1 }
        let share = max(1, maxConnections / max(1, counts.count))
        let closable = open.filter { $0.key != newcomer && $0.value.phase.closingRank != nil }
        let order: ((key: UInt, value: Entry), (key: UInt, value: Entry)) -> Bool = { left, right in
            let ranks = (left.value.phase.closingRank ?? 0, right.value.phase.closingRank ?? 0)
            return ranks.0 != ranks.1 ? ranks.0 < ranks.1 : left.value.since < right.value.since
        }
        let most = closable.values.map { counts[$0.address] ?? 0 }.max() ?? 0
        if most > share {
            return closable.filter { counts[$0.value.address] == most }.min(by: order)?.key
        }
        return closable.filter { $0.value.phase.awaitsHead }.min(by: order)?.key
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

    /// The head is complete: decides what happens to the request. The
    /// body's deadline counts from now.
    /// - Parameter connection: the connection's key.
    /// - Returns: the verdict.
    func headArrived(_ connection: UInt) -> Verdict {
        state.withLock { state in
            guard let entry = state.entries[connection] else { return .proceed }
            if entry.phase == .closing { return .closed }
            state.entries[connection]?.phase = .body
            state.entries[connection]?.since = .now
            state.entries[connection]?.bodyBytes = 0
            return entry.refused ? .refuse : .proceed
        }
    }

    /// A chunk of the body arrived.
    /// - Parameters:
    ///   - connection: the connection's key.
    ///   - bytes: its size.
    /// - Returns: false when the guard closed the connection already.
    func bodyArrived(_ connection: UInt, bytes: Int) -> Bool {
        state.withLock { state in
            guard let entry = state.entries[connection] else { return true }
            if entry.phase == .closing { return false }
            state.entries[connection]?.bodyBytes += bytes
            return true
        }
    }

    /// The body is complete: the handler makes the answer, with no deadline.
    /// - Parameter connection: the connection's key.
    /// - Returns: false when the guard closed the connection already.
    func bodyComplete(_ connection: UInt) -> Bool {
        state.withLock { state in
            guard let entry = state.entries[connection] else { return true }
            if entry.phase == .closing { return false }
            state.entries[connection]?.phase = .handling
            return true
        }
    }

    /// An answer was queued (at the head, or after the body).
    /// - Parameter connection: the connection's key.
    func responding(_ connection: UInt) {
        state.withLock { state in
            guard let entry = state.entries[connection], entry.phase != .closing else { return }
            state.entries[connection]?.phase = .responding
        }
    }

    /// A request ended; the connection may carry another one, whose head
    /// has its own deadline from now.
    /// - Parameter connection: the connection's key.
    /// - Returns: why the guard closed the connection, if it did.
    func requestEnded(_ connection: UInt) -> Closure? {
        state.withLock { state in
            guard let entry = state.entries[connection] else { return nil }
            if entry.phase == .closing { return entry.closure }
            state.entries[connection]?.phase = .reused
            state.entries[connection]?.since = .now
            return nil
        }
    }

    /// Answers a request libmicrohttpd is about to answer wrongly, and
    /// closes its connection before libmicrohttpd writes anything. On TLS
    /// the connection is closed without an answer.
    /// - Parameters:
    ///   - connection: the connection's key.
    ///   - problem: the answer.
    ///   - reason: the reason phrase of its status line.
    ///   - failure: why, for the log.
    func answerAndClose(_ connection: UInt, problem: HTTPProblem, reason: String, failure: String) {
        state.withLock { state in
            guard let entry = state.entries[connection], entry.phase != .closing else { return }
            close(
                connection, in: &state, answer: Self.rawAnswer(problem, reason: reason), reason: failure,
                outcome: answersRaw ? .completed : nil, status: problem.status)
        }
    }

    /// Connections known to the guard, closed or not; for tests.
    var count: Int { state.withLock { $0.entries.count } }

    // MARK: - Closing

    private func close(
        _ key: UInt, in state: inout State, answer: [UInt8]?, reason: String,
        outcome: HTTPRequestOutcome? = .timedOut, status: HTTPStatus? = nil
    ) {
        guard let entry = state.entries[key] else { return }
        state.entries[key]?.phase = .closing
        var answered = false
        if answersRaw, let answer {
            // Never blocks: a client that does not read loses the answer.
            let sent = answer.withUnsafeBytes {
                Glibc.send(entry.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
            }
            answered = sent == answer.count
        }
        state.entries[key]?.closure = Closure(
            reason: reason, outcome: outcome, status: answered ? status : nil)
        _ = shutdown(entry.fd, Int32(SHUT_RDWR))
    }
}
