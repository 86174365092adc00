/// Limits, TLS and hooks of an HTTP server engine. Every limit protects the
/// server from clients: a request over one gets a 4xx (or its connection is
/// refused or closed), never a crash.
public struct HTTPServerConfiguration: Sendable {
    /// The most connections open at once; more are refused at accept. With
    /// a thread per connection this also bounds the threads.
    public var maxConnections: Int
    /// The most connections open at once from one client IP address; 0 for
    /// no limit (the default, because behind a reverse proxy or in tests
    /// every client has the same address).
    public var maxConnectionsPerAddress: Int
    /// A connection with no traffic for this long is closed (an idle
    /// keep-alive connection, or a client that stopped sending its body).
    /// Whole seconds; time a handler spends answering does not count.
    public var idleTimeout: Duration
    /// The memory per connection for the request line, the header fields and
    /// the read buffer: it bounds header size (a larger head is answered 431
    /// or 413 by the engine) and the size of body chunks.
    public var connectionMemoryLimit: Int
    /// A body refused midway (a buffered body over its limit when no
    /// `Content-Length` announced it, a sink that threw) is read and
    /// discarded up to this many more bytes so the client gets the error
    /// response; past that the connection is closed without one.
    public var maxDiscardedBodyBytes: Int
    /// The stack size of each connection thread in bytes; nil for the
    /// system's default.
    public var threadStackSize: Int?
    /// Serve HTTPS with these credentials; nil for plain HTTP.
    public var tls: HTTPServerTLS?
    /// Called once per request, when it ends, with its log record (on an
    /// engine thread; keep it quick). Nil to log nothing.
    public var requestLog: (@Sendable (HTTPRequestLogRecord) -> Void)?
    /// Called with the engine's own messages (failures to bind, TLS
    /// handshake errors, refused connections), which never carry header
    /// values. Nil to drop them.
    public var diagnostics: (@Sendable (String) -> Void)?

    /// Makes a configuration; the defaults suit the reference server on a
    /// small machine.
    /// - Parameters:
    ///   - maxConnections: the most connections at once.
    ///   - maxConnectionsPerAddress: the most per client address, 0 for no limit.
    ///   - idleTimeout: the idle time after which a connection is closed.
    ///   - connectionMemoryLimit: bytes per connection for the head and read buffer.
    ///   - maxDiscardedBodyBytes: how much of a refused body is read to answer it.
    ///   - threadStackSize: bytes of stack per connection thread, nil for the default.
    ///   - tls: TLS credentials, nil for plain HTTP.
    ///   - requestLog: the request log hook.
    ///   - diagnostics: the engine message hook.
    public init(
        maxConnections: Int = 256, maxConnectionsPerAddress: Int = 0, idleTimeout: Duration = .seconds(60),
        connectionMemoryLimit: Int = 64 * 1024, maxDiscardedBodyBytes: Int = 16 * 1024 * 1024,
        threadStackSize: Int? = nil, tls: HTTPServerTLS? = nil,
        requestLog: (@Sendable (HTTPRequestLogRecord) -> Void)? = nil,
        diagnostics: (@Sendable (String) -> Void)? = nil
    ) {
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.idleTimeout = idleTimeout
        self.connectionMemoryLimit = connectionMemoryLimit
        self.maxDiscardedBodyBytes = maxDiscardedBodyBytes
        self.threadStackSize = threadStackSize
        self.tls = tls
        self.requestLog = requestLog
        self.diagnostics = diagnostics
    }
}
