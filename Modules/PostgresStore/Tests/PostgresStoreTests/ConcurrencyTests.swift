import Foundation
import ShareKitPostgresStore
import ShareKitSQLInterface
import Testing

/// Runs `body` on a thread of its own (not the test's cooperative pool, which
/// a connection waiting for another's lock must not block) and returns a
/// function that waits for its result.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) -> @Sendable () -> Result<T, any Error> {
    let done = DispatchSemaphore(value: 0)
    let box = ResultBox<T>()
    Thread.detachNewThread {
        box.set(Result { try body() })
        done.signal()
    }
    return {
        done.wait()
        return box.get()
    }
}

private final class ResultBox<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<T, any Error>?
    func set(_ value: Result<T, any Error>) { lock.withLock { result = value } }
    func get() -> Result<T, any Error> { lock.withLock { result! } }
}

/// Waits until some connection of the database waits for a lock (a live
/// view: `pg_locks`), asking up to `timeout`.
func waitForLockWaiter(_ observer: PostgresDatabase, timeout: Duration = .seconds(30)) throws {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        let waiting: Int64 = try #require(
            try observer.query(
                "SELECT count(*) AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database OR l.database IS NULL "
                    + "WHERE NOT l.granted AND d.datname = current_database()"
            ).first
        ).get("n")
        if waiting > 0 { return }
    }
    Issue.record("no connection waited for a lock within \(timeout)")
}

@Suite("two connections at once")
struct ConcurrencyTests {
    @Test(
        "a unique conflict with an uncommitted row waits for it: after its commit the insert is a duplicate, after its rollback it succeeds"
    )
    func uniqueConflictAcrossConnections() throws {
        let fixture = try PostgresFixture(
            configuration: PostgresConfiguration(isolation: .readCommitted), schema: PostgresFixture.itemsSchema)
        defer { fixture.remove() }
        let first = fixture.database
        let second = try fixture.connect(PostgresConfiguration(isolation: .readCommitted))
        let observer = try fixture.connect()
        defer {
            try? second.close()
            try? observer.close()
        }
        for commits in [true, false] {
            let n: Int64 = commits ? 1 : 2
            struct Abandon: Error {}
            var waited: (@Sendable () -> Result<Void, any Error>)?
            let outcome = Result {
                try first.transaction {
                    try first.execute("INSERT INTO items (writer, n) VALUES ('w', ?)", [.integer(n)])
                    waited = onThread {
                        try second.transaction {
                            _ = try second.execute("INSERT INTO items (writer, n) VALUES ('w', ?)", [.integer(n)])
                        }
                    }
                    try waitForLockWaiter(observer)
                    if !commits { throw Abandon() }
                }
            }
            let wait = try #require(waited)
            let secondOutcome = wait()
            if commits {
                try outcome.get()
                guard case .failure(SQLError.constraint(let kind, _)) = secondOutcome else {
                    Issue.record("the second insert ended with \(secondOutcome)")
                    continue
                }
                #expect(kind == .unique)
            } else {
                guard case .failure(let error) = outcome, error is Abandon else {
                    Issue.record("the first transaction ended with \(outcome)")
                    continue
                }
                try secondOutcome.get()
            }
        }
        #expect(try fixture.psql("SELECT n FROM items ORDER BY n") == "1\n2")
    }

    @Test(
        "serializable: write skew is refused with a retryable serializationFailure, and the retry sees the other's commit"
    )
    func serializationFailure() throws {
        let schema = [
            "CREATE TABLE doctors (name TEXT PRIMARY KEY, on_call BOOLEAN NOT NULL); "
                + "INSERT INTO doctors VALUES ('alice', true), ('bob', true)"
        ]
        let serializable = PostgresConfiguration(isolation: .serializable)
        let fixture = try PostgresFixture(configuration: serializable, schema: schema)
        defer { fixture.remove() }
        let alice = fixture.database
        let bob = try fixture.connect(serializable)
        defer { try? bob.close() }
        /// Goes off call only if another doctor stays on call.
        func goOffCall(_ database: PostgresDatabase, _ name: String, while other: () throws -> Void = {}) throws -> Bool
        {
            try database.transaction {
                let onCall: Int64 = try #require(
                    try database.query("SELECT count(*) AS n FROM doctors WHERE on_call").first
                ).get("n")
                try other()
                guard onCall >= 2 else { return false }
                try database.execute("UPDATE doctors SET on_call = false WHERE name = ?", [.text(name)])
                return true
            }
        }
        // Both read "two on call"; Bob commits first; Alice's transaction must not commit.
        var bobWent = false
        let error = #expect(throws: SQLError.self) {
            _ = try goOffCall(alice, "alice") { bobWent = try goOffCall(bob, "bob") }
        }
        #expect(bobWent)
        guard case .serializationFailure(let message) = try #require(error) else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(message.contains("40001"))
        // Running the whole transaction again is the cure: now Alice must stay.
        #expect(try goOffCall(alice, "alice") == false)
        #expect(try fixture.psql("SELECT name FROM doctors WHERE on_call") == "alice")
    }

    @Test("a deadlock between two transactions rolls one back with serializationFailure; the other commits")
    func deadlock() throws {
        let schema = [
            "CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance BIGINT NOT NULL); "
                + "INSERT INTO accounts VALUES (1, 100), (2, 100)"
        ]
        let readCommitted = PostgresConfiguration(isolation: .readCommitted)
        let fixture = try PostgresFixture(configuration: readCommitted, schema: schema)
        defer { fixture.remove() }
        let other = try fixture.connect(readCommitted)
        defer { try? other.close() }
        for database in [fixture.database, other] { try database.execute("SET deadlock_timeout = '50ms'") }
        let bothLockedOne = DispatchGroup()
        bothLockedOne.enter()
        bothLockedOne.enter()
        /// Moves money from `from` to `to`, locking `from` first.
        func transfer(_ database: PostgresDatabase, from: Int64, to: Int64) -> @Sendable () -> Result<Void, any Error> {
            onThread {
                try database.transaction {
                    try database.execute("UPDATE accounts SET balance = balance - 10 WHERE id = ?", [.integer(from)])
                    bothLockedOne.leave()
                    bothLockedOne.wait()
                    try database.execute("UPDATE accounts SET balance = balance + 10 WHERE id = ?", [.integer(to)])
                }
            }
        }
        let outcomes = [transfer(fixture.database, from: 1, to: 2), transfer(other, from: 2, to: 1)].map { $0() }
        let failures = outcomes.compactMap { outcome -> SQLError? in
            if case .failure(let error) = outcome { return error as? SQLError }
            return nil
        }
        try #require(failures.count == 1, "\(outcomes)")
        guard case .serializationFailure(let message) = failures[0] else {
            Issue.record("\(failures[0])")
            return
        }
        #expect(message.contains("40P01"))
        // One transfer happened, whole: the total is kept.
        #expect(try fixture.psql("SELECT sum(balance) FROM accounts") == "200")
        #expect(try fixture.psql("SELECT count(*) FROM accounts WHERE balance = 100") == "0")
    }

    @Test("exclusive transactions on two connections take turns: read-modify-write stays exact without retries")
    func exclusiveReadModifyWrite() throws {
        let fixture = try PostgresFixture(
            schema: [
                "CREATE TABLE counter (id INTEGER PRIMARY KEY, value BIGINT NOT NULL); INSERT INTO counter VALUES (1, 0)"
            ])
        defer { fixture.remove() }
        let connections = try [fixture.database, fixture.connect(), fixture.connect()]
        defer { for connection in connections.dropFirst() { try? connection.close() } }
        let waits = connections.map { database in
            onThread {
                for _ in 0..<100 {
                    try database.transaction {
                        // Read, compute in Swift, write back: only exclusion makes this exact.
                        let value: Int64 = try #require(try database.query("SELECT value FROM counter").first).get(
                            "value")
                        try database.execute("UPDATE counter SET value = ? WHERE id = 1", [.integer(value + 1)])
                    }
                }
            }
        }
        for wait in waits { try wait().get() }
        #expect(try fixture.psql("SELECT value FROM counter") == "300")
    }

    @Test("an exclusive transaction that cannot get the lock within the lock timeout fails with busy, and works later")
    func busy() throws {
        let fixture = try PostgresFixture(schema: PostgresFixture.itemsSchema)
        defer { fixture.remove() }
        let impatient = try fixture.connect(PostgresConfiguration(lockTimeout: .milliseconds(200)))
        defer { try? impatient.close() }
        try fixture.database.transaction {
            try fixture.database.execute("INSERT INTO items (writer, n) VALUES ('holder', 1)")
            let error = #expect(throws: SQLError.self) {
                try impatient.transaction { try impatient.execute("INSERT INTO items (writer, n) VALUES ('late', 1)") }
            }
            guard case .busy = try #require(error) else {
                Issue.record("\(String(describing: error))")
                return
            }
        }
        try impatient.transaction { try impatient.execute("INSERT INTO items (writer, n) VALUES ('late', 1)") }
        #expect(try fixture.psql("SELECT writer FROM items ORDER BY id") == "holder\nlate")
    }
}
