import Foundation
import ShareKitPostgresStore
import ShareKitSQLInterface
import Testing

/// ``PostgresIsolation/rowLocks``: transactions of several connections run at
/// once, and a deadlock victim is run again rather than failed.
@Suite("row locks instead of one lock for the database")
struct RowLockTests {
    private static let countersSchema = [
        "CREATE TABLE counters (name TEXT PRIMARY KEY, n BIGINT NOT NULL); "
            + "INSERT INTO counters VALUES ('x', 0), ('y', 0)"
    ]

    @Test("a transaction of another connection commits while this one is open (no deployment-wide lock)")
    func transactionsOverlap() throws {
        let rowLocks = PostgresConfiguration(isolation: .rowLocks, lockTimeout: .seconds(2))
        let fixture = try PostgresFixture(configuration: rowLocks, schema: PostgresFixture.itemsSchema)
        defer { fixture.remove() }
        let first = fixture.database
        let second = try fixture.connect(rowLocks)
        defer { try? second.close() }
        try first.transaction {
            try first.execute("INSERT INTO items (writer, n) VALUES ('first', 1)", [])
            let other = onThread {
                try second.transaction { try second.execute("INSERT INTO items (writer, n) VALUES ('second', 1)", []) }
            }
            // Under the exclusive lock this waits for our commit, then fails with busy.
            _ = try other().get()
            #expect(try fixture.psql("SELECT writer FROM items") == "second")
        }
        #expect(try fixture.psql("SELECT writer FROM items ORDER BY writer") == "first\nsecond")
    }

    @Test("two transactions that lock two rows in opposite orders both commit: the deadlock victim runs again")
    func deadlockVictimRunsAgain() throws {
        let rowLocks = PostgresConfiguration(isolation: .rowLocks)
        let fixture = try PostgresFixture(configuration: rowLocks, schema: Self.countersSchema)
        defer { fixture.remove() }
        let second = try fixture.connect(rowLocks)
        defer { try? second.close() }
        let runs = Runs()
        // Only the first run of each waits for the other: a run again does not.
        let (a, b) = Self.bumpInOppositeOrders(fixture.database, second) { runs.next() <= 2 }
        try a().get()
        try b().get()
        #expect(try fixture.psql("SELECT n FROM counters ORDER BY name") == "2\n2")
        // Two first runs, and at least one more of the victim's.
        #expect(runs.count >= 3)
    }

    @Test("without retries left, the deadlock reaches the caller as serializationFailure")
    func deadlockWithoutRetries() throws {
        var noRetries = PostgresConfiguration(isolation: .rowLocks)
        noRetries.serializationRetries = 0
        let fixture = try PostgresFixture(configuration: noRetries, schema: Self.countersSchema)
        defer { fixture.remove() }
        let second = try fixture.connect(noRetries)
        defer { try? second.close() }
        let (a, b) = Self.bumpInOppositeOrders(fixture.database, second) { true }
        let outcomes = [a(), b()]
        let failures = outcomes.compactMap { outcome -> (any Error)? in
            if case .failure(let error) = outcome { return error }
            return nil
        }
        #expect(failures.count == 1)
        guard case SQLError.serializationFailure? = failures.first as? SQLError else {
            Issue.record("the victim ended with \(outcomes)")
            return
        }
        #expect(try fixture.psql("SELECT n FROM counters ORDER BY name") == "1\n1")
    }
}

extension RowLockTests {
    /// Starts two transactions, each on a thread of its own, that add 1 to
    /// both counters, one `x` first and the other `y` first. A run for which
    /// `waits` says so waits, after its first row, until the other holds its
    /// first row too, so that the two deadlock.
    /// - Returns: functions that wait for each transaction's outcome.
    static func bumpInOppositeOrders(
        _ one: PostgresDatabase, _ other: PostgresDatabase, waits: @escaping @Sendable () -> Bool
    ) -> (@Sendable () -> Result<Void, any Error>, @Sendable () -> Result<Void, any Error>) {
        let oneLocked = DispatchSemaphore(value: 0)
        let otherLocked = DispatchSemaphore(value: 0)
        @Sendable func bump(
            _ database: PostgresDatabase, first: String, then: String, mine: DispatchSemaphore,
            theirs: DispatchSemaphore
        ) throws {
            try database.transaction {
                let wait = waits()
                try database.execute("UPDATE counters SET n = n + 1 WHERE name = ?", [.text(first)])
                if wait {
                    mine.signal()
                    theirs.wait()
                }
                try database.execute("UPDATE counters SET n = n + 1 WHERE name = ?", [.text(then)])
            }
        }
        return (
            onThread { try bump(one, first: "x", then: "y", mine: oneLocked, theirs: otherLocked) },
            onThread { try bump(other, first: "y", then: "x", mine: otherLocked, theirs: oneLocked) }
        )
    }
}

/// Counts the runs of transaction bodies on several threads.
private final class Runs: @unchecked Sendable {
    private let lock = NSLock()
    private var runs = 0
    var count: Int { lock.withLock { runs } }
    func next() -> Int {
        lock.withLock {
            runs += 1
            return runs
        }
    }
}
