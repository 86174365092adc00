import Foundation

/// The tests that use or measure much of this process's memory take turns:
/// suites run in parallel in one process, and a test that holds large
/// answers would show up in another's measurement of its peak memory.
enum MemoryHeavy {
    private static let turn = NSLock()

    /// Runs `body` while no other memory-heavy test runs.
    static func run<T>(_ body: () throws -> T) rethrows -> T {
        turn.lock()
        defer { turn.unlock() }
        return try body()
    }
}
