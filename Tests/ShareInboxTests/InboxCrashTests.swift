import Foundation
import ShareKitCoreTesting
import ShareKitInbox
import ShareKitInboxInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

@Suite("inbox: writers killed at any point")
struct InboxCrashTests {
    /// Bytes every `inbox-write` helper writes: 40 chunks of 16 KiB.
    static let size = 640 * 1024
    static let chunk = 16 * 1024

    /// Starts `inbox-write` for `id`.
    private func writer(_ fixture: InboxFixture, id: String, pauseAfter: Int? = nil) throws -> HelperProcess {
        var arguments = [
            "inbox-write", "--dir", fixture.inboxPath, "--id", id, "--bytes", "\(Self.size)", "--chunk",
            "\(Self.chunk)",
        ]
        if let pauseAfter { arguments += ["--pause-after", "\(pauseAfter)"] }
        return try HelperProcess(arguments)
    }

    /// The scan after a kill holds either nothing of `id` or the whole entry.
    private func expectAllOrNothing(_ scan: InboxScan, id: String, point: String) {
        #expect(scan.quarantined.isEmpty, "killed at \(point): \(scan.quarantined)")
        #expect(scan.entries.allSatisfy { $0.id == id }, "killed at \(point)")
        guard let entry = scan.entries.first(where: { $0.id == id }) else { return }
        #expect(!entry.isLocked, "killed at \(point): the kernel released the lock")
        let attachment = entry.manifest.attachments[0]
        #expect(attachment.size == Int64(Self.size), "killed at \(point)")
        let data = FileManager.default.contents(atPath: entry.path(of: attachment))
        #expect(data == Data((0..<Self.size).map { UInt8($0 % 251) }), "killed at \(point)")
    }

    @Test("SIGKILL while writing at 20 points leaves a complete entry or nothing, never a quarantined one")
    func killedWriters() throws {
        let fixture = try InboxFixture()
        defer { fixture.remove() }
        var generator = SystemRandomNumberGenerator()
        var committed = 0
        for round in 0..<20 {
            let id = "kill-\(round)"
            let point: String
            let helper: HelperProcess
            switch round {
            case 0..<6:
                // Paused at a known chunk (0: the draft is locked, nothing written yet).
                let pause = [0, 1, 5, 20, 39, 40][round]
                helper = try writer(fixture, id: id, pauseAfter: pause)
                #expect(helper.waitForLine { $0 == "paused" } != nil)
                point = "pause after chunk \(pause)"
            case 6..<16:
                // Running free: killed as soon as it printed a random line.
                helper = try writer(fixture, id: id)
                let lines = ["writing"] + (1...40).map { "chunk \($0)" } + ["committing"]
                let line = lines[Int.random(in: 0..<lines.count, using: &generator)]
                #expect(helper.waitForLine { $0 == line } != nil)
                point = "'\(line)' (running)"
            default:
                // After the commit, while it still holds the new entry.
                helper = try writer(fixture, id: id)
                #expect(helper.waitForLine { $0.hasPrefix("committed ") } != nil)
                #expect(try fixture.inbox.scan().entries.first { $0.id == id }?.isLocked == true)
                point = "committed"
            }
            helper.kill(SIGKILL)
            #expect(helper.finish().status == 128 + SIGKILL)
            let scan = try fixture.inbox.scan()
            expectAllOrNothing(scan, id: id, point: point)
            if round >= 16 { #expect(scan.entries.count == 1, "killed after the commit") }
            committed += scan.entries.count
            for entry in scan.entries { _ = try fixture.inbox.drop(id: entry.id) }
        }
        // Every writer paused or killed before "committing" left its draft in .staging, invisible.
        #expect(committed >= 4)
    }

    @Test(
        "a scan removes a killed writer's draft at once, one killed before its lock after a minute, never a locked one")
    func abandonedDrafts() throws {
        let fixture = try InboxFixture()
        defer { fixture.remove() }
        let killed = try writer(fixture, id: "killed", pauseAfter: 3)
        #expect(killed.waitForLine { $0 == "paused" } != nil)
        killed.kill(SIGKILL)
        _ = killed.finish()
        let alive = try writer(fixture, id: "alive", pauseAfter: 3)
        #expect(alive.waitForLine { $0 == "paused" } != nil)
        let local = try fixture.inbox.makeDraft(id: "local")
        // A writer killed between mkdir and its lock leaves its creation name.
        let creating = fixture.stagingPath + "/early.0123456789abcdef.new"
        #expect(mkdir(creating, 0o700) == 0)

        // The killed writer's draft is unlocked under its own name: gone at
        // the first scan, while the creation name could still be a live writer's.
        let first = try fixture.inbox.scan()
        #expect(first.entries.isEmpty && first.quarantined.isEmpty)
        var left = fixture.names(in: fixture.stagingPath)
        #expect(left.count == 3, "\(left)")
        #expect(left.contains { $0.hasPrefix("early.") } && !left.contains { $0.hasPrefix("killed.") })

        // Ten minutes, not one and a second: the folders' modification times
        // come from the real clock, and on a loaded machine they were made
        // seconds after the test clock's start.
        fixture.clock.advance(seconds: 600)
        let scan = try fixture.inbox.scan()
        #expect(scan.entries.isEmpty && scan.quarantined.isEmpty)
        left = fixture.names(in: fixture.stagingPath)
        #expect(left.count == 2, "\(left)")
        #expect(left.contains { $0.hasPrefix("alive.") } && left.contains { $0.hasPrefix("local.") })

        // The surviving writer still finishes its entry.
        alive.writeLine("go")
        #expect(alive.waitForLine { $0.hasPrefix("committed ") } != nil)
        alive.writeLine("release")
        #expect(alive.readLine() == "released")
        #expect(alive.finish().status == 0)
        #expect(try fixture.inbox.scan().entries.map(\.id) == ["alive"])
        fixture.inbox.discard(local)
        #expect(fixture.names(in: fixture.stagingPath).isEmpty)
    }
}
