public import ShareKitDaemonControlInterface
import Synchronization

/// A daemon in memory, for tests of what a command does with its answers:
/// it answers `status` with a given result, takes `wake` when it runs, and
/// records what it was asked. No socket, no process.
public final class FakeDaemonControl: DaemonControlling {
    /// What `status` answers: a report, or why there is none
    /// (``DaemonControlError/notRunning`` for a daemon that is not running).
    public let statusAnswer: Result<DaemonStatusReport, DaemonControlError>
    private let asked = Mutex<[DaemonRequest]>([])

    /// - Parameter status: what `status` answers; `.failure(.notRunning)` is a daemon that is not running.
    public init(status: Result<DaemonStatusReport, DaemonControlError>) {
        statusAnswer = status
    }

    /// A running daemon that reports `report`.
    /// - Parameter report: the status it answers.
    public convenience init(running report: DaemonStatusReport) {
        self.init(status: .success(report))
    }

    /// The requests asked so far, in order (`isListening` asks nothing).
    public var requests: [DaemonRequest] { asked.withLock { $0 } }

    /// The status given at init, made safe for a terminal as the socket's client makes it.
    public func status() -> Result<DaemonStatusReport, DaemonControlError> {
        asked.withLock { $0.append(.status) }
        return statusAnswer.map(\.neutralised)
    }

    /// Whether the fake runs; the request is recorded either way.
    public func wake() -> Bool {
        asked.withLock { $0.append(.wake) }
        return isListening()
    }

    /// Whether the fake runs: its status is anything but ``DaemonControlError/notRunning``.
    public func isListening() -> Bool {
        statusAnswer != .failure(.notRunning)
    }
}
