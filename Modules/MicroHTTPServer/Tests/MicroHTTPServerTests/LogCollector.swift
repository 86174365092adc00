import Dispatch
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitSystemTesting
import Synchronization

/// Collects request log records; the engine writes them after the response
/// went out, so a test waits for them instead of reading at once.
final class LogCollector: Sendable {
    private let records = Mutex<[HTTPRequestLogRecord]>([])
    private let arrived = DispatchSemaphore(value: 0)

    /// The hook for ``HTTPServerConfiguration/requestLog``.
    var hook: @Sendable (HTTPRequestLogRecord) -> Void {
        { record in
            self.records.withLock { $0.append(record) }
            self.arrived.signal()
        }
    }

    /// Waits until at least `count` records arrived (20 s at most).
    func wait(for count: Int) -> [HTTPRequestLogRecord] {
        while records.withLock({ $0.count }) < count {
            if arrived.wait(timeout: .now() + 20) == .timedOut { break }
        }
        return records.withLock { $0 }
    }
}
