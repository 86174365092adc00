extension CurlHTTPClient {
    /// What a ``CurlHTTPClient`` uses for every request.
    public struct Configuration: Sendable, Hashable {
        /// A PEM file of CA certificates to trust for `https` instead of the
        /// system's store (a private server's CA); nil for the system's store.
        public var caFile: String?
        /// The `User-Agent` header.
        public var userAgent: String
        /// Idle connections kept open for reuse.
        public var maxIdleConnections: Int
        /// The most connections to one host at once, 0 for no limit; further
        /// requests wait inside the client for a free connection.
        public var maxConnectionsPerHost: Int
        /// Bodies of at least this many bytes are sent with
        /// `Expect: 100-continue`, so the server can refuse them before they
        /// are sent; smaller ones go at once.
        public var expectContinueThreshold: UInt64
        /// Whether making the client starts loading libcurl on a background
        /// thread at once (so the first request does not wait for it), or
        /// leaves it to the first request. A program that does memory-heavy
        /// work before its first request (`share send` sniffing a file with
        /// libmagic) turns it off, so that the two never add up in its peak.
        public var loadsLibraryEarly: Bool

        /// Makes a configuration.
        /// - Parameters:
        ///   - caFile: the CA file, nil for the system's store.
        ///   - userAgent: the `User-Agent` header (`ShareKit libcurl/<the version built with>` unless given).
        ///   - maxIdleConnections: idle connections kept (16 unless given).
        ///   - maxConnectionsPerHost: the per-host connection limit (none unless given).
        ///   - expectContinueThreshold: the body size from which to send `Expect: 100-continue` (1 MiB unless given).
        ///   - loadsLibraryEarly: load libcurl in the background when the client is made (unless given),
        ///     or on the first request.
        public init(
            caFile: String? = nil, userAgent: String = "ShareKit libcurl/\(CurlLibrary.buildVersion)",
            maxIdleConnections: Int = 16, maxConnectionsPerHost: Int = 0, expectContinueThreshold: UInt64 = 1 << 20,
            loadsLibraryEarly: Bool = true
        ) {
            self.loadsLibraryEarly = loadsLibraryEarly
            self.caFile = caFile
            self.userAgent = userAgent
            self.maxIdleConnections = maxIdleConnections
            self.maxConnectionsPerHost = maxConnectionsPerHost
            self.expectContinueThreshold = expectContinueThreshold
        }
    }
}
