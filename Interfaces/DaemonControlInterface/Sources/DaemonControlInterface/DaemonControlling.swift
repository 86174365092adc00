/// The CLI's side of the control socket: what `share` asks share-daemon
/// (``DaemonRequest``) and what it makes of the answer. The root hands one
/// out for its environment's socket; a test hands a command a fake
/// (`DaemonControlInterfaceTesting`'s `FakeDaemonControl`) instead of
/// starting a daemon.
public protocol DaemonControlling: Sendable {
    /// What share-daemon says about itself, with every string made safe for
    /// a terminal (``DaemonStatusReport/neutralised``): whoever listens on
    /// the socket may have written them.
    /// - Returns: the status, or why there is none (``DaemonControlError/notRunning``
    ///   when no daemon listens).
    func status() -> Result<DaemonStatusReport, DaemonControlError>

    /// Wakes the daemon's inbox takeover and session loop at once (best
    /// effort: without a running daemon a kept share waits for its next
    /// start or pass).
    /// - Returns: whether a daemon answered: false when none is running, so
    ///   the caller can say how to start one.
    @discardableResult
    func wake() -> Bool

    /// Whether a daemon listens on the socket now (nothing is asked).
    func isListening() -> Bool
}

/// The daemon's side of the control socket: what it does for a request it
/// understood, and the answer. The socket itself (reading the line, the
/// deadline, the plain words of the previous version) is the
/// implementation's; the handler sees only the request.
public protocol DaemonControlHandling: Sendable {
    /// Does what `request` asks and says so.
    /// - Parameter request: a request the socket understood.
    /// - Returns: the answer written back.
    func answer(_ request: DaemonRequest) -> DaemonAnswer
}

/// A listening control socket, as the daemon holds it while it runs.
public protocol DaemonControlListening: Sendable {
    /// The socket's path.
    var path: String { get }

    /// Stops listening, closes every connection still open and removes the socket file.
    func close()
}

/// How long and how many connections a listening control socket serves:
/// any process of the user can connect, and one that is slow or silent must
/// not keep the others out.
public struct DaemonControlLimits: Sendable, Equatable {
    /// The time a connection has for its request line and the answer.
    public var deadline: Duration
    /// The most connections served at once.
    public var connections: Int
    /// The listen backlog: connections the kernel holds until they are accepted.
    public var backlog: Int32

    /// - Parameters:
    ///   - deadline: the time a connection has for its request line and the answer.
    ///   - connections: the most connections served at once.
    ///   - backlog: the listen backlog.
    public init(deadline: Duration = .seconds(2), connections: Int = 8, backlog: Int32 = 64) {
        self.deadline = deadline
        self.connections = connections
        self.backlog = backlog
    }
}
