import Foundation

/// How a program's `main` waits for its work: on the process's main thread,
/// which no task of the program ever occupies, so that the decision to end
/// the process stays in `main` even when the work hangs.
///
/// A daemon told to stop cancels its services and waits for them; every
/// service ends promptly when cancelled, but a library call that does not
/// return (a stuck file system, a resolver) would keep the process alive
/// for ever. Waiting on a thread of the concurrency pool would not help:
/// blocked work can occupy every pool thread (two on a two-core machine),
/// and then nothing awaiting could run. The main thread is never one of them.
public enum ProgramRun {
    /// How the wait ended.
    public enum End: Equatable, Sendable {
        /// The work returned this exit status.
        case finished(Int32)
        /// The work asked for a deadline (``StopDeadline/arm(after:overdue:)``)
        /// and had not returned when it passed: `main` ends the process at
        /// once (``ProgramExit/interrupted(_:)``), leaving the work as it is.
        case overdue
    }

    /// Runs `work` on the concurrency pool and blocks the calling thread
    /// (the main thread) until it returns, or until a deadline it armed passes.
    /// - Parameter work: the program; it receives the deadline to arm when it starts to stop.
    /// - Returns: the status `work` returned, or ``End/overdue``.
    public static func wait(_ work: @escaping @Sendable (StopDeadline) async -> Int32) -> End {
        let deadline = StopDeadline()
        Task { deadline.finish(await work(deadline)) }
        return deadline.waitForEnd()
    }
}

/// The deadline a program arms when it starts to stop (see ``ProgramRun``).
public final class StopDeadline: @unchecked Sendable {
    private let condition = NSCondition()
    // All below under `condition`.
    private var status: Int32?
    private var limit: Date?
    private var overdue: (@Sendable () -> Void)?

    init() {}

    /// From now, the program has `duration` to return; past it, `overdue`
    /// runs on the main thread (a log line saying so) and the process ends.
    /// Arming again moves the deadline.
    /// - Parameters:
    ///   - duration: the time the stop may take.
    ///   - overdue: what to say when it took longer.
    public func arm(after duration: Duration, overdue: @escaping @Sendable () -> Void) {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        condition.lock()
        limit = Date(timeIntervalSinceNow: seconds)
        self.overdue = overdue
        condition.broadcast()
        condition.unlock()
    }

    /// The work returned `status`.
    fileprivate func finish(_ status: Int32) {
        condition.lock()
        self.status = status
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks until the work returned or the armed deadline passed.
    fileprivate func waitForEnd() -> ProgramRun.End {
        condition.lock()
        while true {
            if let status {
                condition.unlock()
                return .finished(status)
            }
            if let limit {
                if Date() >= limit { break }
                _ = condition.wait(until: limit)
            } else {
                condition.wait()
            }
        }
        let overdue = self.overdue
        condition.unlock()
        overdue?()
        return .overdue
    }
}
