import Dispatch
import Foundation
import ShareKitClientTestSupport
import ShareKitSystemTesting
import ShareKitTestSupport
import Synchronization
import Testing

/// The programs end cleanly, whatever they did: no crash on the way out
/// (a library still loading on another thread while `exit` tears the
/// process down was one), and no start-up work a command does not need.
@Suite("the programs end without a crash")
struct CleanExitTests {
    /// How often each command runs: `SHAREKIT_EXIT_RUNS`, else 300 (a crash
    /// of one run in 25 to 40 shows in every such series).
    static var runs: Int {
        ProcessInfo.processInfo.environment["SHAREKIT_EXIT_RUNS"].flatMap { Int($0) }.map { max(1, $0) } ?? 300
    }

    /// One command of the series and the exit status it must end with.
    struct Command: Sendable {
        let name: String
        let program: String
        let arguments: [String]
        let status: Int32
    }

    /// What went wrong in one run, for the failure message.
    struct BadRun: Sendable, CustomStringConvertible {
        let run: Int
        let status: Int32
        let stderr: String
        var description: String { "run \(run): exit status \(status); stderr: \(stderr.suffix(1500))" }
    }

    /// ``series(_:count:environment:)`` on a thread of its own: the runs
    /// wait for processes, which must not hold a thread of the cooperative
    /// pool (other suites' tasks run there meanwhile).
    static func offThePool(_ command: Command, count: Int, environment: [String: String]) async -> [BadRun] {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: series(command, count: count, environment: environment))
            }
        }
    }

    /// Runs `command` `count` times, two at a time, and returns the runs
    /// that crashed or ended with another status than expected.
    static func series(_ command: Command, count: Int, environment: [String: String]) -> [BadRun] {
        let next = Atomic<Int>(0)
        let bad = Mutex<[BadRun]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            while true {
                let run = next.add(1, ordering: .relaxed).oldValue
                guard run < count else { return }
                let result: ProcessResult
                do {
                    result = try runProcess(command.program, command.arguments, environment: environment)
                } catch {
                    bad.withLock { $0.append(BadRun(run: run, status: -1, stderr: "cannot start: \(error)")) }
                    continue
                }
                // The Swift runtime's backtracer says "Program crashed" (and a
                // crash may still end with status 0); a signal is 128 + its number.
                if result.status != command.status || result.stderr.contains("Program crashed")
                    || result.stderr.contains("Backtracing")
                {
                    bad.withLock { $0.append(BadRun(run: run, status: result.status, stderr: result.stderr)) }
                }
            }
        }
        return bad.withLock { $0 }
    }

    @Test(
        "share --version, status, targets, text shares and share-daemon --once, each run many times: never a crash")
    func noCrashOnExit() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        // The share that sends must find its target among the recents too (share targets lists them).
        #expect(try fixture.share(["send", "--text", "first", "--to", "thread:t1"]).status == 0)
        let share = BuiltProducts.path("share")
        let commands = [
            Command(name: "share --version", program: share, arguments: ["--version"], status: 0),
            Command(name: "share status", program: share, arguments: ["status"], status: 0),
            Command(name: "share targets", program: share, arguments: ["targets"], status: 0),
            Command(
                name: "share send --text", program: share, arguments: ["send", "--text", "hi", "--to", "thread:t1"],
                status: 0),
            // libcurl's start-up begins (the share will be sent), then the
            // command line turns out wrong: the program ends while it loads.
            Command(
                name: "share send --to thred:t1", program: share,
                arguments: ["send", "--text", "hi", "--to", "thred:t1"], status: 2),
            Command(
                name: "share-daemon --once", program: BuiltProducts.path("share-daemon"), arguments: ["--once"],
                status: 0),
        ]
        let count = Self.runs
        let clock = ContinuousClock()
        var timings: [String] = []
        for command in commands {
            let started = clock.now
            let bad = await Self.offThePool(command, count: count, environment: fixture.sandbox.environment)
            timings.append("\(command.name): \(clock.now - started)")
            #expect(bad.isEmpty, "\(command.name): \(bad.count) of \(count) runs went wrong; first: \(bad.first!)")
        }
        // The time of each series, for the report (and for choosing SHAREKIT_EXIT_RUNS on a slow machine).
        print("CleanExitTests: \(count) runs each, 2 at a time: " + timings.joined(separator: ", "))
    }

    @Test("share status and share targets (the recent ones) ask no server and do not load libcurl")
    func noNetworkStartUpWithoutNetwork() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        // The dynamic loader names every library it maps (LD_DEBUG=libs, on stderr).
        let environment = fixture.sandbox.environment.merging(["LD_DEBUG": "libs"]) { $1 }
        for arguments in [["status"], ["targets"], ["inbox", "list"]] {
            let run = try runProcess(BuiltProducts.path("share"), arguments, environment: environment)
            #expect(run.status == 0, "share \(arguments): \(run.stderr.suffix(500))")
            #expect(!run.stderr.contains("libcurl.so"), "share \(arguments.joined(separator: " ")) loaded libcurl")
        }
    }
}
