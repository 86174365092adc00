import CShareKitMicroHTTPD
import CShareKitMicroHTTPDShim
import Glibc
public import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import Synchronization

/// An HTTP/1.1 server (HTTPS with ``ShareKitHTTPServerInterface/HTTPServerConfiguration/tls``)
/// on GNU libmicrohttpd, running an ``ShareKitHTTPServerInterface/HTTPRequestHandler``.
///
/// Each connection has its own thread, so a handler may block (SQLite, a
/// long poll) without holding up other connections; the number of threads
/// is bounded by ``ShareKitHTTPServerInterface/HTTPServerConfiguration/maxConnections``
/// plus ``ShareKitHTTPServerInterface/HTTPServerConfiguration/overflowConnections``.
/// libmicrohttpd parses the requests and enforces the per-address limit and
/// the idle timeout; a connection guard adds a deadline for each request
/// head and each request body and makes room for new connections (or
/// answers 503), and large answers clients have not taken are bounded in
/// total (``ShareKitHTTPServerInterface/HTTPServerConfiguration/maxBufferedResponseBytes``).
/// This type answers unsupported transfer codings (501), long targets
/// (414), large heads (431) and a `Content-Length` that is not a number
/// (400) with problem documents, routes heads, body chunks and responses
/// between libmicrohttpd and the handler, and answers the handler's
/// failures with problem documents. What libmicrohttpd answers itself (a
/// head that does not fit the connection memory, an HTTP version other than
/// 1.x, a malformed chunk size) keeps its own HTML body.
///
/// ```swift
/// let server = MicroHTTPServer(handler: router, configuration: HTTPServerConfiguration(
///     requestLog: { print($0) }))
/// let port = try server.start(host: "127.0.0.1", port: 0)
/// // … on SIGTERM:
/// server.stop(gracePeriod: .seconds(10))
/// ```
public final class MicroHTTPServer: HTTPServing {
    private let handler: any HTTPRequestHandler
    private let configuration: HTTPServerConfiguration
    /// The running daemon; the lock also serializes start and stop.
    private let running = Mutex<RunningDaemon?>(nil)
    /// The bound port, -1 when stopped, and the running daemon's shared
    /// state: read without taking the lifecycle lock, which a stop holds for
    /// its whole grace period.
    private let port = Atomic<Int>(-1)
    private let core = Mutex<ServerCore?>(nil)

    /// Makes a server; nothing listens until ``start(host:port:)``.
    /// - Parameters:
    ///   - handler: the application's handler.
    ///   - configuration: limits, TLS and hooks.
    public init(handler: any HTTPRequestHandler, configuration: HTTPServerConfiguration = HTTPServerConfiguration()) {
        self.handler = handler
        self.configuration = configuration
    }

    deinit {
        if let daemon = running.withLock({ $0.take() }) { daemon.stop(gracePeriod: .zero) }
    }

    /// The bound port while the server runs, else nil.
    public var boundPort: Int? {
        let value = port.load(ordering: .acquiring)
        return value < 0 ? nil : value
    }

    /// Requests between their request line and their completion, now; for
    /// tests and metrics.
    public var requestsInFlight: Int {
        core.withLock { $0?.inFlight.count } ?? 0
    }

    /// Waits until no request is in flight, or `timeout` passes. A request
    /// leaves the count only after its log record is written, so a caller
    /// that has seen a request's record may still see it counted for a
    /// moment; this is how to wait for that moment to end without polling.
    /// - Parameter timeout: the longest wait.
    /// - Returns: true when no request was in flight before the timeout
    ///   (at once when the server is not running).
    public func waitUntilNoRequestInFlight(timeout: Duration) -> Bool {
        guard let running = core.withLock({ $0 }) else { return true }
        return running.inFlight.waitUntilIdle(gracePeriod: timeout)
    }

    /// Bytes of large in-memory answers held for clients now (those that
    /// count against ``ShareKitHTTPServerInterface/HTTPServerConfiguration/maxBufferedResponseBytes``);
    /// for tests and metrics.
    public var bufferedResponseBytes: Int {
        core.withLock { $0?.responseMemory.held } ?? 0
    }

    /// Binds and starts serving; see ``ShareKitHTTPServerInterface/HTTPServing/start(host:port:)``.
    /// - Parameters:
    ///   - host: a numeric IPv4 or IPv6 address, or `localhost`.
    ///   - port: the TCP port, 0 for one the system picks.
    /// - Returns: the bound port.
    /// - Throws: ``ShareKitHTTPServerInterface/HTTPServerError``.
    public func start(host: String, port requested: Int) throws(HTTPServerError) -> Int {
        try running.withLock { (running: inout RunningDaemon?) throws(HTTPServerError) -> Int in
            guard running == nil else { throw .alreadyRunning }
            let address = try SocketAddress(host: host, port: requested)
            let daemon: RunningDaemon
            do throws(HTTPServerError) {
                daemon = try launch(address)
            } catch .startFailed(let why) {
                // libmicrohttpd's words for a taken port name port 0 and its
                // own options; say what is wrong with the address instead.
                let shown =
                    host.contains(":") && !host.hasPrefix("[") ? "[\(host)]:\(requested)" : "\(host):\(requested)"
                if let problem = address.bindProblem() { throw .invalidAddress("\(shown) \(problem)") }
                throw .startFailed(why)
            } catch {
                throw error
            }
            running = daemon
            core.withLock { $0 = daemon.core }
            port.store(daemon.port, ordering: .releasing)
            return daemon.port
        }
    }

    /// Stops gracefully; see ``ShareKitHTTPServerInterface/HTTPServing/stop(gracePeriod:)``.
    /// - Parameter gracePeriod: the longest wait for requests in flight.
    public func stop(gracePeriod: Duration) {
        running.withLock { (running: inout RunningDaemon?) in
            guard let daemon = running else { return }
            daemon.stop(gracePeriod: gracePeriod)
            running = nil
            core.withLock { $0 = nil }
            port.store(-1, ordering: .releasing)
        }
    }

    // MARK: - Starting libmicrohttpd

    private func launch(_ address: SocketAddress) throws(HTTPServerError) -> RunningDaemon {
        try validate()
        let core = ServerCore(handler: handler, configuration: configuration)
        let context = Unmanaged.passUnretained(core).toOpaque()
        var cStrings: [UnsafeMutablePointer<CChar>] = []
        if let tls = configuration.tls {
            guard let certificate = strdup(tls.certificatePEM), let key = strdup(tls.privateKeyPEM) else {
                throw .startFailed("out of memory")
            }
            cStrings = [certificate, key]
        }
        var options = CMHDShimOptions()
        options.ipv6 = address.isIPv6
        // libmicrohttpd accepts the overflow too; the connection guard
        // refuses it with a 503 (or makes room), see ConnectionGuard.
        options.connection_limit = UInt32(configuration.maxConnections + configuration.overflowConnections)
        options.per_ip_connection_limit = UInt32(configuration.maxConnectionsPerAddress)
        options.connection_timeout_seconds = UInt32(Self.wholeSeconds(configuration.idleTimeout))
        options.connection_memory_limit = configuration.connectionMemoryLimit
        options.thread_stack_size = configuration.threadStackSize ?? 0
        options.tls_certificate_pem = cStrings.first.map { UnsafePointer($0) }
        options.tls_key_pem = cStrings.last.map { UnsafePointer($0) }
        options.access_handler = DaemonCallbacks.access
        options.access_context = context
        options.completed_handler = DaemonCallbacks.completed
        options.completed_context = context
        options.uri_log_handler = DaemonCallbacks.uriLog
        options.uri_log_context = context
        options.connection_handler = DaemonCallbacks.connection
        options.connection_context = context
        // The engine's messages are wanted even without a diagnostics hook:
        // they explain a failed start.
        options.log_handler = DaemonCallbacks.log
        options.log_context = context
        options.malformed_length_handler = DaemonCallbacks.malformedLength
        options.malformed_length_context = context

        var shimState: UnsafeMutableRawPointer?
        let daemon = address.bytes.withUnsafeBytes { bytes in
            options.address = bytes.baseAddress?.assumingMemoryBound(to: sockaddr.self)
            return cmhd_shim_start_daemon(&options, &shimState)
        }
        let messages = core.finishStarting()
        guard let daemon else {
            for string in cStrings { free(string) }
            throw .startFailed(messages.isEmpty ? "libmicrohttpd refused to start" : messages.joined(separator: "; "))
        }
        core.connections.startSweeping()
        return RunningDaemon(
            daemon: daemon, core: core, port: Int(cmhd_shim_bound_port(daemon)), shimState: shimState,
            cStrings: cStrings)
    }

    private func validate() throws(HTTPServerError) {
        let c = configuration
        guard c.maxConnections > 0, c.maxConnections <= Int(UInt32.max) else {
            throw .invalidConfiguration("maxConnections must be positive")
        }
        guard c.overflowConnections >= 0, c.overflowConnections <= Int(UInt32.max) - c.maxConnections else {
            throw .invalidConfiguration("overflowConnections must be 0 or positive")
        }
        guard c.requestHeadTimeout >= .milliseconds(100) else {
            throw .invalidConfiguration("requestHeadTimeout must be at least 100 ms")
        }
        guard c.requestBodyTimeout >= .milliseconds(100) else {
            throw .invalidConfiguration("requestBodyTimeout must be at least 100 ms")
        }
        guard c.minimumBodyRate > 0 else {
            throw .invalidConfiguration("minimumBodyRate must be positive")
        }
        guard c.maxBufferedResponseBytes >= 0 else {
            throw .invalidConfiguration("maxBufferedResponseBytes must be 0 or positive")
        }
        guard c.busyRetryAfterSeconds >= 0 else {
            throw .invalidConfiguration("busyRetryAfterSeconds must be 0 or positive")
        }
        guard c.maxRequestTargetBytes > 0, c.maxRequestHeadBytes > 0 else {
            throw .invalidConfiguration("maxRequestTargetBytes and maxRequestHeadBytes must be positive")
        }
        guard c.maxConnectionsPerAddress >= 0, c.maxConnectionsPerAddress <= Int(UInt32.max) else {
            throw .invalidConfiguration("maxConnectionsPerAddress must be 0 or positive")
        }
        guard c.idleTimeout >= .seconds(1) else {
            throw .invalidConfiguration("idleTimeout must be at least one second")
        }
        guard c.connectionMemoryLimit >= 4096 else {
            throw .invalidConfiguration("connectionMemoryLimit must be at least 4096 bytes")
        }
        guard c.maxDiscardedBodyBytes >= 0 else {
            throw .invalidConfiguration("maxDiscardedBodyBytes must be 0 or positive")
        }
        if let stack = c.threadStackSize, stack < 64 * 1024 {
            throw .invalidConfiguration("threadStackSize must be at least 65536 bytes")
        }
    }

    private static func wholeSeconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(clamping: seconds + (attoseconds > 0 ? 1 : 0))
    }
}
