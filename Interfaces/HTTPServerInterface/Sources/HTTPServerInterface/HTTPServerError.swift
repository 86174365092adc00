/// Why an HTTP server could not start.
public enum HTTPServerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// ``HTTPServing/start(host:port:)`` was called on a running server.
    case alreadyRunning
    /// The host is not a numeric IP address (or `localhost`), the port is
    /// outside 0...65535, or the address cannot be bound (another program
    /// listens there, it is not this machine's); the text names the value
    /// and why.
    case invalidAddress(String)
    /// A configuration value is out of range; the text names it.
    case invalidConfiguration(String)
    /// The engine refused to start: the address is in use or not local, the
    /// TLS credentials do not load, or resources ran out. The text is the
    /// engine's own message.
    case startFailed(String)

    /// A message for a person.
    public var description: String {
        switch self {
        case .alreadyRunning: return "the HTTP server is already running; stop it first"
        case .invalidAddress(let why): return "cannot listen there: \(why)"
        case .invalidConfiguration(let why): return "invalid HTTP server configuration: \(why)"
        case .startFailed(let why): return "the HTTP server could not start: \(why)"
        }
    }
}
