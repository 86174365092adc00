import Dispatch
import ShareKitSystemTesting

/// Runs a test's timed section on a thread of its own instead of Swift's
/// cooperative pool. The pool has one thread per core and other suites in
/// the same test process block it (child processes, semaphores), so a task
/// resumed there may wait seconds for a thread; timing a transfer through it
/// would measure the test runner, not the client.
final class TimingExecutor: TaskExecutor {
    /// A serial queue: it targets libdispatch's overcommitting root queue,
    /// which starts a thread when none is free.
    private let queue = DispatchQueue(label: "http-transport-tests.timing")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// Runs `operation` with this executor preferred, so its code and every
    /// resumption after an `await` happen on the executor's thread.
    static func run<T: Sendable>(_ operation: @Sendable () async -> T) async -> T {
        await withTaskExecutorPreference(TimingExecutor()) { await operation() }
    }
}
