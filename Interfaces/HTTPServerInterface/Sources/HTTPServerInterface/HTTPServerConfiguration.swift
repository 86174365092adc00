/// Limits, TLS and hooks of an HTTP server engine. Every limit protects the
/// server from clients: a request over one gets a 4xx (or its connection is
/// refused or closed), never a crash.
public struct HTTPServerConfiguration: Sendable {
    /// The most connections served at once. When one more arrives, room is
    /// made by closing a connection that is not being answered: first one
    /// of the client address holding the most connections, when that
    /// address holds more than its share (`maxConnections` divided by the
    /// addresses connected), else the connection that has waited longest
    /// for its request head. A client that trickles its head or its body
    /// therefore cannot hold a slot against one that sends at once. When no
    /// connection can be closed, the new one is answered `503 server_busy`
    /// with `Retry-After`.
    public var maxConnections: Int
    /// Connections accepted beyond ``maxConnections`` only to be refused
    /// with a `503` problem (or to make room as described there). Past
    /// `maxConnections + overflowConnections` the engine stops accepting and
    /// new connections wait in the kernel's listen queue. With a thread per
    /// connection the sum also bounds the threads.
    public var overflowConnections: Int
    /// The most connections open at once from one client IP address; 0 for
    /// no limit. A connection over it is closed at accept, without an answer
    /// (the engine refuses it before any request is read). Behind a reverse
    /// proxy every client has the proxy's address: set 0 there.
    public var maxConnectionsPerAddress: Int
    /// The longest time a connection may take to send a complete request
    /// head (request line and header fields), counted from the connection's
    /// start or the end of its previous request. Unlike ``idleTimeout`` it is
    /// not extended by each byte, so a client trickling its head is cut off.
    /// An overdue connection gets a `408 request_head_timeout` problem (plain
    /// HTTP, when it has not been used before) and is closed.
    public var requestHeadTimeout: Duration
    /// The slack a request body has on ``minimumBodyRate``: `t` after the
    /// head, at least `(t - requestBodyTimeout) * minimumBodyRate` bytes of
    /// the body must have arrived. A body behind that schedule (a client
    /// that trickles it, or stopped sending it) gets a
    /// `408 request_body_timeout` problem (plain HTTP) and its connection is
    /// closed. Like ``requestHeadTimeout``, slow bytes do not extend it.
    public var requestBodyTimeout: Duration
    /// The slowest average rate, in bytes per second, at which a request
    /// body may arrive after ``requestBodyTimeout``; so a body of `n` bytes
    /// has `requestBodyTimeout + n / minimumBodyRate` in all.
    public var minimumBodyRate: Int
    /// The most bytes of in-memory response bodies
    /// (``HTTPResponseBody/bytes(_:)``) larger than 64 KiB that the engine
    /// holds, over all connections, for answers not yet taken by their
    /// clients. An answer to a `GET` or `HEAD` that would pass it is
    /// replaced by `503 server_busy` with `Retry-After` (asking again costs
    /// nothing); answers of 64 KiB or less, and answers to other methods
    /// (whose effect has happened), are always sent. A client that does not
    /// read its answers therefore cannot make the server hold more than this.
    /// 0 for no limit.
    public var maxBufferedResponseBytes: Int
    /// The `Retry-After` seconds of a `503 server_busy` answer.
    public var busyRetryAfterSeconds: Int
    /// The longest request target in bytes; a longer one is answered
    /// `414 uri_too_long`. Keep it below ``connectionMemoryLimit``: a target
    /// that does not fit there is answered by the engine itself.
    public var maxRequestTargetBytes: Int
    /// The largest request head (request line and header fields) in bytes; a
    /// larger one is answered `431 header_fields_too_large`. Keep it below
    /// ``connectionMemoryLimit``: a head that does not fit there is answered
    /// by the engine itself.
    public var maxRequestHeadBytes: Int
    /// A connection with no traffic for this long is closed (an idle
    /// keep-alive connection, or a client that stopped sending its body).
    /// Whole seconds; time a handler spends answering does not count.
    public var idleTimeout: Duration
    /// The memory per connection for the request line, the header fields and
    /// the read buffer: it bounds header size (a head that does not fit is
    /// answered 414 or 431 by the engine itself, with its own HTML body) and
    /// the size of body chunks.
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
    ///   - maxConnections: the most connections served at once.
    ///   - overflowConnections: connections accepted beyond that only to be refused with 503.
    ///   - maxConnectionsPerAddress: the most per client address, 0 for no limit.
    ///   - requestHeadTimeout: the longest time to send a complete request head.
    ///   - requestBodyTimeout: the slack of a request body on the minimum rate.
    ///   - minimumBodyRate: the slowest average body rate, bytes per second.
    ///   - maxBufferedResponseBytes: the most bytes of large in-memory answers held for clients.
    ///   - busyRetryAfterSeconds: the `Retry-After` of a 503 `server_busy`.
    ///   - maxRequestTargetBytes: the longest request target.
    ///   - maxRequestHeadBytes: the largest request head.
    ///   - idleTimeout: the idle time after which a connection is closed.
    ///   - connectionMemoryLimit: bytes per connection for the head and read buffer.
    ///   - maxDiscardedBodyBytes: how much of a refused body is read to answer it.
    ///   - threadStackSize: bytes of stack per connection thread, nil for the default.
    ///   - tls: TLS credentials, nil for plain HTTP.
    ///   - requestLog: the request log hook.
    ///   - diagnostics: the engine message hook.
    public init(
        maxConnections: Int = 256, overflowConnections: Int = 32, maxConnectionsPerAddress: Int = 32,
        requestHeadTimeout: Duration = .seconds(10), requestBodyTimeout: Duration = .seconds(10),
        minimumBodyRate: Int = 1024, maxBufferedResponseBytes: Int = 64 * 1024 * 1024, busyRetryAfterSeconds: Int = 1,
        maxRequestTargetBytes: Int = 8 * 1024, maxRequestHeadBytes: Int = 16 * 1024,
        idleTimeout: Duration = .seconds(60), connectionMemoryLimit: Int = 64 * 1024,
        maxDiscardedBodyBytes: Int = 16 * 1024 * 1024,
        threadStackSize: Int? = nil, tls: HTTPServerTLS? = nil,
        requestLog: (@Sendable (HTTPRequestLogRecord) -> Void)? = nil,
        diagnostics: (@Sendable (String) -> Void)? = nil
    ) {
        self.maxConnections = maxConnections
        self.overflowConnections = overflowConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.requestHeadTimeout = requestHeadTimeout
        self.requestBodyTimeout = requestBodyTimeout
        self.minimumBodyRate = minimumBodyRate
        self.maxBufferedResponseBytes = maxBufferedResponseBytes
        self.busyRetryAfterSeconds = busyRetryAfterSeconds
        self.maxRequestTargetBytes = maxRequestTargetBytes
        self.maxRequestHeadBytes = maxRequestHeadBytes
        self.idleTimeout = idleTimeout
        self.connectionMemoryLimit = connectionMemoryLimit
        self.maxDiscardedBodyBytes = maxDiscardedBodyBytes
        self.threadStackSize = threadStackSize
        self.tls = tls
        self.requestLog = requestLog
        self.diagnostics = diagnostics
    }
}
