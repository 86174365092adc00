import Foundation
import ShareKitAppSupport
import Synchronization
import Testing

/// ``ProgramRun/wait(_:)`` blocks its thread, as `main` does on the main
/// thread; a test's own thread is one of the concurrency pool's few, which
/// the program's task needs, so each wait runs on a thread of its own.
@Suite("ProgramRun: main waits for the program, or for the stop deadline it armed")
struct ProgramRunTests {
    /// Runs ``ProgramRun/wait(_:)`` on a new thread, as `main` runs it.
    static func waitOnOwnThread(_ work: @escaping @Sendable (StopDeadline) async -> Int32) async -> ProgramRun.End {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: ProgramRun.wait(work)) }
        }
    }

    @Test("the status the program returns")
    func finished() async {
        #expect(await Self.waitOnOwnThread { _ in 3 } == .finished(3))
    }

    @Test("a stop that hangs past its deadline ends the wait, after the overdue line")
    func overdue() async {
        let said = Mutex(false)
        let end = await Self.waitOnOwnThread { deadline in
            deadline.arm(after: .milliseconds(50)) { said.withLock { $0 = true } }
            // A service that never ends: sleeps far past the deadline, and
            // is cancelled by nothing (the test process goes on).
            try? await Task.sleep(for: .seconds(3600))
            return 0
        }
        #expect(end == .overdue)
        #expect(said.withLock { $0 })
    }

    @Test("a stop that ends in time returns its status, and the overdue line is not said")
    func stopInTime() async {
        let said = Mutex(false)
        let end = await Self.waitOnOwnThread { deadline in
            deadline.arm(after: .seconds(60)) { said.withLock { $0 = true } }
            return 7
        }
        #expect(end == .finished(7))
        #expect(!said.withLock { $0 })
    }
}
