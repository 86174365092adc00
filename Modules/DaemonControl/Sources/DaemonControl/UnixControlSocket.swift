import Foundation
import Glibc
public import ShareKitDaemonControlInterface
import ShareKitSecureFiles
import Synchronization

/// The daemon's local control socket (a Unix stream socket, 0600, in a 0700
/// runtime directory): one request line, one answer line, then the daemon
/// closes. The messages are ``DaemonRequest`` and ``DaemonAnswer`` (shared
/// with the client, ``UnixDaemonControl``): `wake` wakes the inbox takeover
/// (after `share send --queue` or a kept share); `status` answers the
/// status `share status` shows; `retry` makes waiting sends due now.
///
/// Any process of the user can connect, and one that is slow or silent
/// must not keep the others out (`share send --queue` waits half a second
/// for its wake-up, then says the daemon is not running):
///
/// - each connection has one deadline (``DaemonControlLimits/deadline``) for reading its
///   request line and writing the answer; bytes sent slowly do not extend
///   it, and a connection past it is closed without an answer;
/// - connections are served side by side, each on a thread of its own, at
///   most ``DaemonControlLimits/connections`` at once. A new connection beyond that
///   closes the one that has waited longest for its request line, so a
///   client that writes its line at once is always served; when every
///   connection is writing its answer, the new one waits for the first to end.
public final class UnixControlSocket: DaemonControlListening, @unchecked Sendable {
    /// The socket's path.
    public let path: String
    private let fd: Int32
    private let connections: Connections
    private let thread: Thread

    /// Binds and listens; a stale socket file of a dead daemon is replaced,
    /// a live daemon's is not (two daemons on one container would both
    /// answer, so the second one is told). The socket's folder is made
    /// private (0700) when it is not.
    /// - Parameters:
    ///   - path: the socket's path.
    ///   - limits: the deadline of a connection and how many are served at once.
    ///   - handler: what the daemon does for each request it understood.
    /// - Throws: ``DaemonControlError/cannotListen(_:)`` when the socket cannot be made.
    public init(
        path: String, limits: DaemonControlLimits = DaemonControlLimits(), handler: any DaemonControlHandling
    ) throws(DaemonControlError) {
        self.path = path
        let directory = (path as NSString).deletingLastPathComponent
        do {
            _ = try SecureDirectory.openBase(directory, create: true)
        } catch {
            throw .cannotListen(String(describing: error))
        }
        if UnixDaemonControl.isListening(path) {
            throw .cannotListen("another share-daemon already listens on \(path)")
        }
        unlink(path)
        guard var address = UnixDaemonControl.address(of: path) else {
            throw .cannotListen("the socket path is too long: \(path)")
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .cannotListen("socket: \(String(cString: strerror(errno)))") }
        // The socket file is created with the umask's bits: make it private first.
        let previous = umask(0o177)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        umask(previous)
        guard bound == 0, listen(fd, limits.backlog) == 0 else {
            let why = String(cString: strerror(errno))
            Glibc.close(fd)
            throw .cannotListen("cannot listen on \(path): \(why)")
        }
        chmod(path, 0o600)
        self.fd = fd
        let connections = Connections(limits: limits, handler: handler)
        self.connections = connections
        thread = Thread {
            UnixControlSocket.acceptLoop(fd: fd, connections: connections)
        }
        thread.name = "share-daemon control socket"
        thread.start()
    }

    /// Stops listening, closes every connection still open and removes the socket file.
    public func close() {
        shutdown(fd, Int32(SHUT_RDWR))
        connections.closeAll()
        unlink(path)
    }

    private static func acceptLoop(fd: Int32, connections: Connections) {
        while true {
            let client = accept(fd, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return  // shut down
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            // Every wait is a poll with the connection's deadline; no call may block past it.
            _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
            connections.serve(client)
        }
    }
}

/// The open connections of the control socket, each served on its own thread.
private final class Connections: @unchecked Sendable {
    private struct Open {
        let fd: Int32
        let acceptedAt: ContinuousClock.Instant
        /// Its request line is read; it is being answered.
        var answering = false
        /// Closed from outside to make room; its thread is ending.
        var evicted = false
    }

    private struct State {
        var open: [UInt64: Open] = [:]
        var nextID: UInt64 = 0
        var closed = false
    }

    private let limits: DaemonControlLimits
    private let handler: any DaemonControlHandling
    private let state = Mutex(State())
    /// Signalled whenever a connection ends: an accept that found no room waits on it.
    private let ended = NSCondition()

    init(limits: DaemonControlLimits, handler: any DaemonControlHandling) {
        self.limits = limits
        self.handler = handler
    }

    /// Serves one accepted connection on a thread of its own, making room first.
    func serve(_ client: Int32) {
        let acceptedAt = ContinuousClock.now
        guard let id = admit(client, acceptedAt: acceptedAt) else {
            Glibc.close(client)
            return
        }
        let deadline = acceptedAt + limits.deadline
        Thread.detachNewThread { [self] in
            answer(id: id, client: client, deadline: deadline)
            // Out of the table before the descriptor is closed, under the
            // lock an eviction takes: `shutdown` never meets a reused number.
            state.withLock { _ = $0.open.removeValue(forKey: id) }
            Glibc.close(client)
            ended.lock()
            ended.broadcast()
            ended.unlock()
        }
    }

    /// Takes a slot for a new connection: a free one, or the one of the
    /// connection that has waited longest for its request line (shut down,
    /// so its thread ends at once), or, when every connection is answering,
    /// the first that ends (each ends by its deadline).
    /// - Returns: the connection's id, or nil when the socket was closed meanwhile.
    private func admit(_ client: Int32, acceptedAt: ContinuousClock.Instant) -> UInt64? {
        while true {
            let admitted = state.withLock { state -> UInt64?? in
                guard !state.closed else { return .some(nil) }
                let live = state.open.filter { !$0.value.evicted }
                if live.count >= limits.connections {
                    let waiting = live.filter { !$0.value.answering }
                    guard let oldest = waiting.min(by: { $0.value.acceptedAt < $1.value.acceptedAt }) else {
                        return nil  // all answering: wait for one to end
                    }
                    state.open[oldest.key]?.evicted = true
                    shutdown(oldest.value.fd, Int32(SHUT_RDWR))
                }
                let id = state.nextID
                state.nextID += 1
                state.open[id] = Open(fd: client, acceptedAt: acceptedAt)
                return .some(id)
            }
            if let admitted { return admitted }
            ended.lock()
            _ = ended.wait(until: Date(timeIntervalSinceNow: 0.1))
            ended.unlock()
        }
    }

    /// Reads the request line and writes the answer, both before `deadline`.
    private func answer(id: UInt64, client: Int32, deadline: ContinuousClock.Instant) {
        guard let line = readLine(client, deadline: deadline) else { return }
        // A connection closed to make room is not answered, whatever it sent.
        let evicted = state.withLock { state -> Bool in
            state.open[id]?.answering = true
            return state.open[id]?.evicted ?? true
        }
        guard !evicted else { return }
        let received = ReceivedDaemonRequest(parsing: String(decoding: line, as: UTF8.self))
        let reply = received.request.map(handler.answer) ?? .refused("unknown request")
        writeAll(Array((reply.line(plainWord: received.isPlainWord) + "\n").utf8), to: client, deadline: deadline)
    }

    /// The request: the bytes up to a newline, the client's end of writing,
    /// or ``ReceivedDaemonRequest/maximumLength`` bytes, whichever comes
    /// first; nil when the deadline passed first or the connection broke.
    private func readLine(_ client: Int32, deadline: ContinuousClock.Instant) -> [UInt8]? {
        var line: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: ReceivedDaemonRequest.maximumLength)
        while line.count < ReceivedDaemonRequest.maximumLength {
            guard wait(client, for: Int16(POLLIN), until: deadline) else { return nil }
            let want = ReceivedDaemonRequest.maximumLength - line.count
            let n = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, want, 0) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return nil
            }
            if n == 0 { return line.isEmpty ? nil : line }
            if let newline = buffer[0..<n].firstIndex(of: UInt8(ascii: "\n")) {
                return line + buffer[0..<newline]
            }
            line += buffer[0..<n]
        }
        return line
    }

    /// Writes the answer unless the deadline passes first (a client that
    /// does not read cannot hold the thread).
    private func writeAll(_ bytes: [UInt8], to client: Int32, deadline: ContinuousClock.Instant) {
        var sent = 0
        while sent < bytes.count {
            guard wait(client, for: Int16(POLLOUT), until: deadline) else { return }
            let n = bytes.withUnsafeBytes {
                send(client, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL))
            }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return
            }
            sent += n
        }
    }

    /// Waits until the socket is ready for `events` or has ended.
    /// - Returns: false when the deadline passed first.
    private func wait(_ client: Int32, for events: Int16, until deadline: ContinuousClock.Instant) -> Bool {
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return false }
            let milliseconds = Int32(min(Double(Int32.max), (left / .milliseconds(1)).rounded(.up)))
            var poller = pollfd(fd: client, events: events, revents: 0)
            let ready = poll(&poller, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            if ready == 1 { return true }
            if ready < 0 { return false }
        }
    }

    /// Closes every open connection (the daemon stops) and takes no new one.
    func closeAll() {
        state.withLock { state in
            state.closed = true
            for connection in state.open.values { shutdown(connection.fd, Int32(SHUT_RDWR)) }
        }
    }
}
