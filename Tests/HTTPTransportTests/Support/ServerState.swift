import Dispatch
import Foundation
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitSystemTesting
import Synchronization

/// What a test and its loopback server's handler share: what the handler
/// saw (client ports, streamed bodies, DPoP attempts) and semaphores that
/// hand control back and forth instead of sleeping.
final class ServerState: Sendable {
    /// One streamed body as the sink received it.
    struct ReceivedBody: Sendable {
        var path: String
        var bytes: Int
        var sha256: String
        var contentLength: String?
    }

    /// The client port of every request, in order (the connection it came on).
    let clientPorts = Mutex<[Int]>([])
    /// Every body a hashing sink finished.
    let receivedBodies = Mutex<[ReceivedBody]>([])
    /// Reasons sinks were aborted.
    let abortReasons = Mutex<[HTTPBodyAbortReason]>([])
    /// Sinks of `/stall-sink` that have their first chunk and wait (a
    /// counter, not a semaphore: tests wait for it without blocking a thread
    /// of the cooperative pool).
    let stalledSinks = Atomic<Int>(0)
    /// Released by the test to let stalled sinks and `/slow` go on.
    let release = DispatchSemaphore(value: 0)
    /// How stalled handlers are let go at the end of a test.
    let releasedAll = Atomic<Bool>(false)
    /// The DPoP behaviour of `/dpop/…`.
    let dpop = DPoPChallenger()

    /// Lets every stalled handler go now and later (before the server stops).
    func releaseAll() {
        releasedAll.store(true, ordering: .releasing)
        for _ in 0..<16 { release.signal() }
    }

    /// Waits for `release` (or for `timeout`), so a handler can stall
    /// without ever outliving its test.
    /// - Parameter timeout: the longest wait.
    func waitForRelease(timeout: DispatchTimeInterval) {
        guard !releasedAll.load(ordering: .acquiring) else { return }
        _ = release.wait(timeout: .now() + timeout)
    }

    /// The number of distinct connections requests came on.
    var connectionCount: Int { clientPorts.withLock { Set($0).count } }
}
