/// The address of the client at the other end of the connection (the TCP
/// peer: behind a reverse proxy that is the proxy).
public struct HTTPRemoteAddress: Hashable, Sendable, CustomStringConvertible {
    /// The IP address in text form (`127.0.0.1`, `::1`).
    public var host: String
    /// The client's port.
    public var port: Int

    /// Makes an address.
    /// - Parameters:
    ///   - host: the IP address in text form.
    ///   - port: the port.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `host:port`, with an IPv6 host in brackets.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
