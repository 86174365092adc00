import ShareKitHTTPInterface
import ShareKitHTTPTypes
import ShareKitSystemTesting
import Synchronization

/// Collects progress reports from the client's thread, and runs an action
/// once when bytes sent first pass a threshold.
final class ProgressLog: Sendable {
    private let reports = Mutex<[HTTPTransferProgress]>([])
    private let trigger: Mutex<(threshold: UInt64, action: (@Sendable () -> Void)?)>

    /// - Parameters:
    ///   - threshold: bytes sent after which `action` runs once.
    ///   - action: what to run (cancel, truncate the file…).
    init(threshold: UInt64 = .max, action: (@Sendable () -> Void)? = nil) {
        trigger = Mutex((threshold, action))
    }

    /// The function to pass as ``ShareKitHTTPInterface/HTTPRequestOptions/progress``.
    var callback: @Sendable (HTTPTransferProgress) -> Void {
        { [self] progress in record(progress) }
    }

    /// The reports so far, in order.
    var all: [HTTPTransferProgress] { reports.withLock { $0 } }

    private func record(_ progress: HTTPTransferProgress) {
        reports.withLock { $0.append(progress) }
        let action = trigger.withLock { trigger -> (@Sendable () -> Void)? in
            guard progress.bytesSent >= trigger.threshold, let action = trigger.action else { return nil }
            trigger.action = nil
            return action
        }
        action?()
    }

    /// Whether both counts never decrease and the last report is complete.
    /// - Parameter total: the body's length.
    /// - Returns: a description of the first problem, or nil.
    func problem(total: UInt64) -> String? {
        let all = self.all
        guard let last = all.last else { return "no progress reports" }
        for (previous, next) in zip(all, all.dropFirst()) {
            if next.bytesSent < previous.bytesSent { return "bytes sent went back: \(previous) -> \(next)" }
            if next.bytesCompleted < previous.bytesCompleted { return "bytes completed went back" }
            if next.totalBytes != total { return "total changed: \(next)" }
        }
        if last != HTTPTransferProgress(bytesSent: total, bytesCompleted: total, totalBytes: total) {
            return "last report is \(last), not complete at \(total)"
        }
        return nil
    }
}
