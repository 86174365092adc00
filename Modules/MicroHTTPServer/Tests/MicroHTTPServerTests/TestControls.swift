import Dispatch
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitSystemTesting
import Synchronization

/// What a test and its server's handler share: semaphores to hand control
/// back and forth (never sleeps), and what the handler observed.
final class TestControls: Sendable {
    /// Where streamed uploads are written.
    let uploadDirectory: String
    /// `/wait` signals it when it starts waiting, then waits for `release`.
    let waitEntered = DispatchSemaphore(value: 0)
    let waitRelease = DispatchSemaphore(value: 0)
    /// `/slow` likewise, for the graceful stop.
    let slowEntered = DispatchSemaphore(value: 0)
    let slowRelease = DispatchSemaphore(value: 0)
    /// A file sink got its first chunk.
    let firstChunk = DispatchSemaphore(value: 0)
    /// A file sink was aborted.
    let sinkAborted = DispatchSemaphore(value: 0)
    /// The handler was told the server stops.
    let stopping = DispatchSemaphore(value: 0)
    /// When set, a stop wakes `/wait` (the long poll answers early).
    let wakeWaitersOnStop = Atomic<Bool>(false)
    /// Why sinks were aborted, in order.
    let abortReasons = Mutex<[HTTPBodyAbortReason]>([])
    /// The largest chunk any sink saw.
    let largestChunk = Atomic<Int>(0)
    /// Calls of `respond(to:body:)`.
    let respondCalls = Atomic<Int>(0)
    /// Client ports seen, to count connections.
    let clientPorts = Mutex<Set<Int>>([])

    init(uploadDirectory: String) {
        self.uploadDirectory = uploadDirectory
    }
}
