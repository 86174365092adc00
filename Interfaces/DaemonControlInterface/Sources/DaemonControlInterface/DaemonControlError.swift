/// Why the control socket gave no usable answer, or could not be set up:
/// the one error of both sides of the exchange. Descriptions are for a
/// person and never contain text from the socket unescaped.
public enum DaemonControlError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nobody listens on the socket: share-daemon is not running.
    case notRunning
    /// Something listens but wrote nothing before the deadline or closing.
    case noAnswer
    /// The answer was cut short: no end before the deadline.
    case incomplete
    /// The answer was larger than the limit (bytes).
    case tooLarge(limit: Int)
    /// The answer is not the JSON this request is answered with; the text says where.
    case unreadable(String)
    /// The daemon refused the request; its reason, made safe for a terminal.
    case refused(String)
    /// The daemon's socket could not be made (another daemon listens on
    /// it, its path is too long, the system refused); the text says why.
    case cannotListen(String)

    /// The error for a person.
    public var description: String {
        switch self {
        case .notRunning: return "share-daemon is not running"
        case .noAnswer: return "no answer"
        case .incomplete: return "the answer did not end in time"
        case .tooLarge(let limit): return "the answer is larger than \(limit / 1024) KiB"
        case .unreadable(let why): return "the answer is not what share-daemon writes (\(why))"
        case .refused(let reason): return "refused: \(reason)"
        case .cannotListen(let why): return why
        }
    }
}
