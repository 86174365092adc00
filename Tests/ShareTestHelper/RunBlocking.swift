import Dispatch

/// Runs async work from the helper's synchronous command and waits for it:
/// the work runs on the cooperative pool while this thread blocks.
/// - Parameter work: the work.
/// - Returns: its result.
func runBlocking<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
    let done = DispatchSemaphore(value: 0)
    let box = ResultBox<T>()
    Task {
        box.value = await work()
        done.signal()
    }
    done.wait()
    guard let value = box.value else { fatalError("runBlocking finished without a value") }
    return value
}

/// Carries a result from the task to the waiting thread; the semaphore
/// orders the write before the read.
private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}
