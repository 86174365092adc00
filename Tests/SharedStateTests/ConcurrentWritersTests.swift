import Foundation
import ShareKitSharedState
import ShareKitSharedStateInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

@Suite("several processes at once")
struct ConcurrentWritersTests {
    @Test("8 processes incrementing a counter 500 times each end at exactly 4000")
    func eightProcessesIncrement() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-state")
        defer { directory.remove() }
        let root = directory.file("container")
        let container = try SharedContainerDirectory(directory: root)

        let started = Date()
        // Start all eight before waiting for any, so they really overlap.
        let helpers = try (0..<8).map { _ in try HelperProcess(["state-increment", root, "500"]) }
        let outcomes = helpers.map { $0.finish() }
        for outcome in outcomes {
            #expect(outcome.status == 0, "helper failed: \(outcome.stderr)")
        }
        #expect(try container.state.integer(for: .displayCount) == 4000)
        print("8 x 500 cross-process increments took \(String(format: "%.2f", Date().timeIntervalSince(started))) s")
    }

    @Test("a named lock makes unprotected read-modify-write of a plain file exact across 4 processes")
    func lockSerialisesProcesses() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-lock")
        defer { directory.remove() }
        let container = try SharedContainerDirectory(directory: directory.file("container"))
        let counter = directory.file("counter.txt")
        try "0\n".write(toFile: counter, atomically: false, encoding: .utf8)

        let helpers = try (0..<4).map { _ in
            try HelperProcess(["lock-counter", container.locksPath, "counter", counter, "200"])
        }
        for outcome in helpers.map({ $0.finish() }) {
            #expect(outcome.status == 0, "helper failed: \(outcome.stderr)")
        }
        let total = try String(contentsOfFile: counter, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(total == "800")
    }
}
