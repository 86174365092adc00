import Foundation
import ShareKitSharedState
import ShareKitSharedStateInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

@Suite("cross-process locks")
struct ContainerLockTests {
    @Test("a lock held by another process excludes this one until that process releases it")
    func excludesAnotherProcess() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-lock")
        defer { directory.remove() }
        let container = try SharedContainerDirectory(directory: directory.file("container"))
        let locks: any CrossProcessLocking = container.locks

        let holder = try HelperProcess(["lock-hold", container.locksPath, "session-refresh"])
        // The helper prints "locked" only once it holds the lock.
        #expect(holder.readLine() == "locked")
        #expect(try locks.withExclusiveLockIfAvailable(named: "session-refresh") { "ran" } == nil)
        // Other names are independent.
        #expect(try locks.withExclusiveLockIfAvailable(named: "inbox-entry-1") { "ran" } == "ran")

        holder.writeLine("release")
        // The helper prints "released" only after letting go.
        #expect(holder.readLine() == "released")
        #expect(try locks.withExclusiveLockIfAvailable(named: "session-refresh") { "ran" } == "ran")
        #expect(try locks.withExclusiveLock(named: "session-refresh") { 7 } == 7)
        #expect(holder.finish().status == 0)
    }

    @Test("a lock also excludes another holder in the same process")
    func excludesInProcess() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-lock")
        defer { directory.remove() }
        let locks = ContainerLock(directory: directory.file("locks"))
        let inner = try locks.withExclusiveLock(named: "a") {
            try locks.withExclusiveLockIfAvailable(named: "a") { true }
        }
        #expect(inner == nil)
        #expect(try locks.withExclusiveLockIfAvailable(named: "a") { true } == true)
    }

    @Test("a throwing body releases the lock")
    func releasesOnThrow() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-lock")
        defer { directory.remove() }
        let locks = ContainerLock(directory: directory.file("locks"))
        struct Failure: Error {}
        #expect(throws: Failure.self) { try locks.withExclusiveLock(named: "a") { throw Failure() } }
        #expect(try locks.withExclusiveLockIfAvailable(named: "a") { true } == true)
    }

    @Test("the async variant runs its body under the lock, and waiting for a busy lock can be cancelled")
    func asyncVariant() async throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-lock")
        defer { directory.remove() }
        let container = try SharedContainerDirectory(directory: directory.file("container"))
        let locks = container.locks
        let value = try await locks.withExclusiveLock(named: "refresh", pollingEvery: .milliseconds(5)) {
            try locks.withExclusiveLockIfAvailable(named: "refresh") { 1 } ?? 2
        }
        #expect(value == 2)

        let holder = try HelperProcess(["lock-hold", container.locksPath, "refresh"])
        #expect(holder.readLine() == "locked")
        let waiter = Task {
            try await locks.withExclusiveLock(named: "refresh", pollingEvery: .milliseconds(5)) { "acquired" }
        }
        waiter.cancel()
        // The helper holds the lock until told otherwise, so the waiter can only end by cancellation.
        await #expect(throws: CancellationError.self) { try await waiter.value }
        holder.writeLine("release")
        #expect(holder.readLine() == "released")
        #expect(
            try await locks.withExclusiveLock(named: "refresh", pollingEvery: .milliseconds(5)) { "acquired" }
                == "acquired")
        #expect(holder.finish().status == 0)
    }

    @Test(
        "lock names are plain file names",
        arguments: ["", "../escape", "a/b", ".hidden", String(repeating: "x", count: 101), "sp ace"])
    func invalidNames(name: String) throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-lock")
        defer { directory.remove() }
        let locks = ContainerLock(directory: directory.file("locks"))
        #expect(throws: SharedStateError.invalidLockName(name)) { try locks.withExclusiveLock(named: name) {} }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).allSatisfy { $0 == "locks" })
    }
}
