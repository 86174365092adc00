import Foundation
import ShareKitCoreTesting
import ShareKitInbox
import ShareKitInboxInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Synchronization
import Testing

@Suite("inbox: entry locks across processes")
struct InboxLockTests {
    @Test("an entry locked by another process is busy and listed as locked; SIGKILL of the holder frees it")
    func lockHeldByAnotherProcess() throws {
        let fixture = try InboxFixture()
        defer { fixture.remove() }
        try fixture.commitEntry(id: "busy")
        try fixture.commitEntry(id: "free")

        let holder = try HelperProcess(["inbox-lock", "--dir", fixture.inboxPath, "--id", "busy"])
        #expect(holder.readLine() == "locked")
        #expect(try fixture.inbox.lock(id: "busy", wait: false) == nil)
        let scan = try fixture.inbox.scan()
        #expect(scan.entries.map(\.id) == ["busy", "free"])
        #expect(scan.entries.map(\.isLocked) == [true, false])
        // Nor can it be quarantined from under its holder.
        #expect(throws: InboxError.self) { _ = try fixture.inbox.quarantine(id: "busy", reason: "test") }
        #expect(exists(fixture.inboxPath + "/busy"))

        holder.kill(SIGKILL)
        #expect(holder.finish().status == 128 + SIGKILL)
        let (lock, entry) = try fixture.lockFree(id: "busy")
        #expect(entry.id == "busy" && !entry.isLocked)
        lock.release()
        #expect(try fixture.inbox.scan().entries.allSatisfy { !$0.isLocked })
    }

    @Test("lock(wait: true) waits for the holder to let go")
    func waitsForHolder() async throws {
        let fixture = try InboxFixture()
        defer { fixture.remove() }
        try fixture.commitEntry(id: "shared")
        let holder = try HelperProcess(["inbox-lock", "--dir", fixture.inboxPath, "--id", "shared"])
        #expect(holder.readLine() == "locked")

        let acquired = Mutex(false)
        let inbox = fixture.inbox
        let waiter = Task.detached {
            let result = try inbox.lock(id: "shared", wait: true)
            acquired.withLock { $0 = true }
            return result?.1.id
        }
        // The waiter is blocked in flock, behind the helper that holds the lock until told otherwise.
        #expect(waitUntilBlockedOnLock(pid: getpid()))
        #expect(acquired.withLock { $0 } == false)
        holder.writeLine("release")
        #expect(holder.readLine() == "released")
        #expect(try await waiter.value == "shared")
        #expect(holder.finish().status == 0)
    }

    @Test("a helper finds an entry processed meanwhile gone, and one the test holds busy until released")
    func processedWhileWaiting() throws {
        let fixture = try InboxFixture()
        defer { fixture.remove() }
        try fixture.commitEntry(id: "taken")
        let (lock, entry) = try fixture.lockFree(id: "taken")
        // The helper waits for our lock; we complete the entry; it must not get a removed folder.
        let waiter = try HelperProcess(["inbox-lock", "--dir", fixture.inboxPath, "--id", "taken"])
        #expect(waitUntilBlockedOnLock(pid: waiter.pid))
        try fixture.inbox.markProcessed(entry, lock: lock)
        #expect(waiter.readLine() == "gone")
        #expect(waiter.finish().status == 3)
    }
}

/// Waits until the kernel lists `pid` as waiting for a `flock` (a `->` line
/// of /proc/locks), so the test acts while the other process is blocked.
/// - Returns: false when it never blocked (after about ten seconds).
func waitUntilBlockedOnLock(pid: Int32) -> Bool {
    for _ in 0..<10_000 {
        let locks = (try? String(contentsOfFile: "/proc/locks", encoding: .utf8)) ?? ""
        let blocked = locks.split(separator: "\n").contains { line in
            line.contains("->") && line.contains("FLOCK") && line.split(separator: " ").contains("\(pid)")
        }
        if blocked { return true }
        usleep(1000)
    }
    return false
}
