import Dispatch
import Foundation

/// Waits for SIGTERM or SIGINT, so a long-running program (share-server,
/// share-daemon) can stop gracefully instead of dying mid-write.
public enum SignalWaiter {
    /// Returns once the process receives SIGTERM or SIGINT.
    public static func waitForTermination() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let queue = DispatchQueue(label: "sharekit.signals")
            let once = Once(continuation)
            var sources: [any DispatchSourceSignal] = []
            for number in [SIGTERM, SIGINT] {
                // The default action would kill the process before the source sees it.
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler { once.fire() }
                source.resume()
                sources.append(source)
            }
            SignalSources.keep(sources)
        }
    }

    /// Resumes the continuation the first time only.
    private final class Once: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Void, Never>?
        init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = continuation }
        func fire() {
            lock.lock()
            let c = continuation
            continuation = nil
            lock.unlock()
            c?.resume()
        }
    }

    /// Keeps the signal sources alive for the life of the process.
    private enum SignalSources {
        nonisolated(unsafe) static var all: [any DispatchSourceSignal] = []
        static func keep(_ sources: [any DispatchSourceSignal]) { all += sources }
    }
}
