import Foundation
import ShareKitClientTestSupport
import ShareKitCore
import ShareKitCoreTesting
import ShareKitHTTPInterfaceTesting
import ShareKitOutbox
import ShareKitOutboxInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// `outbox-drain` helper processes killed with SIGKILL at random steps.
@Suite("outbox: SIGKILL of the drainer at any step, then every message exactly once")
struct KillTests {
    @Test("ten drainers killed at random steps, then a final pass: each message once on the server")
    func killedDrainers() async throws {
        let fixture = try await OutboxFixture()
        defer { fixture.close() }
        var items: [OutboxItem] = []
        for n in 0..<8 {
            let files: [(String, Int)] = n % 3 == 0 ? [] : [("f\(n)-a.bin", 20_000 + n), ("f\(n)-b.bin", 40_000 + n)]
            items.append(try fixture.enqueue("message \(n)", files: Array(files.prefix(n % 3))))
        }
        var killedAfter: [Int] = []
        for _ in 0..<10 {
            // Lease 0: each helper takes back the claim its killed predecessor left.
            let helper = try HelperProcess(
                ["outbox-drain", fixture.origin, fixture.databasePath, fixture.outboxDirectory, "0"],
                environment: fixture.sandbox.environment)
            let steps = Int.random(in: 1...5)
            var seen = 0
            _ = helper.waitForLine { line in
                seen += 1
                return seen == steps || line.hasPrefix("drained")
            }
            helper.kill(SIGKILL)
            let outcome = helper.finish()
            #expect(outcome.status == 128 + SIGKILL || outcome.status == 0, "\(outcome.stderr)")
            killedAfter.append(steps)
        }
        // The helpers claimed by the system clock; every one of them is dead now.
        fixture.clock.advance(toMilliseconds: OutboxDrainer.systemClock())
        let last = try await fixture.drainer(lease: .zero).drainOnce()
        #expect(last.failed == 0 && last.retried == 0, "\(last)")
        let counts = try await fixture.serverCounts()
        for item in items {
            #expect(counts[item.clientMsgID.description] == 1, "killed after steps \(killedAfter): \(counts)")
            #expect(try fixture.outbox.item(item.clientMsgID)?.state == .sent)
        }
        #expect(counts.count == items.count)
        #expect(try fixture.outbox.counts() == OutboxCounts(sent: items.count))
    }
}
