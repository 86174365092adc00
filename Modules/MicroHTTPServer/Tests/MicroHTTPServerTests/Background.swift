import Foundation
import ShareKitSystemTesting
import Synchronization

/// Work started on its own thread (a client request that blocks), whose
/// result a test collects later by waiting on a semaphore.
final class Background<Value: Sendable>: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let result = Mutex<Value?>(nil)

    /// Starts the work.
    init(_ work: @escaping @Sendable () -> Value) {
        let thread = Thread { [self] in
            let value = work()
            self.result.withLock { $0 = value }
            self.done.signal()
        }
        thread.start()
    }

    /// Whether the work has finished, without waiting.
    var isFinished: Bool { result.withLock { $0 != nil } }

    /// Waits for the result (60 s at most, then nil).
    func value(timeout: Double = 60) -> Value? {
        guard done.wait(timeout: .now() + timeout) == .success else { return nil }
        done.signal()
        return result.withLock { $0 }
    }
}
