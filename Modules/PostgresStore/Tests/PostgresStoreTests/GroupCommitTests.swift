import Foundation
import ShareKitSQLInterface
import Testing

@testable import ShareKitPostgresStore

/// Exclusive transactions of several threads on one connection share one
/// PostgreSQL transaction and one commit, each in its own savepoint, and
/// each returns only after that commit.
@Suite("group commit")
struct GroupCommitTests {
    private struct Failure: Error {}

    /// Waits until `count` threads wait for the database's connection.
    private func waitForWaiters(_ database: PostgresDatabase, _ count: Int) throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while database.waitingThreads < count {
            guard ContinuousClock.now < deadline else { throw Failure() }
            sched_yield()
        }
    }

    /// Starts a transaction on a thread of its own that inserts a row of
    /// `writer` and then holds the connection until `proceed` is signalled.
    /// - Returns: the semaphore, and the function that waits for the result.
    private func heldTransaction(_ database: PostgresDatabase, writer: String)
        -> (proceed: DispatchSemaphore, result: @Sendable () -> Result<Void, any Error>)
    {
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let result = onThread {
            try database.transaction {
                try database.execute("INSERT INTO items (writer, n) VALUES (?, 1)", [.text(writer)])
                entered.signal()
                proceed.wait()
            }
        }
        entered.wait()
        return (proceed, result)
    }

    @Test("three threads' transactions while one runs: one COMMIT for all, every row committed, a thrower undone alone")
    func waitersShareOneCommit() throws {
        let fixture = try PostgresFixture(schema: PostgresFixture.itemsSchema)
        defer { fixture.remove() }
        let database = fixture.database
        let commitsBefore = database.commits
        let (proceed, first) = heldTransaction(database, writer: "first")
        let second = onThread {
            try database.transaction {
                try database.execute("INSERT INTO items (writer, n) VALUES ('second', 1)")
                throw Failure()
            }
        }
        let third = onThread {
            try database.transaction {
                // Sees the work of the members before it.
                let rows = try database.query("SELECT count(*) AS n FROM items WHERE writer = 'first'")
                try database.execute(
                    "INSERT INTO items (writer, n) VALUES ('third', ?)",
                    [.integer(try #require(rows.first).get("n", as: Int64.self))])
            }
        }
        try waitForWaiters(database, 2)
        proceed.signal()
        #expect(throws: Never.self) { try first().get() }
        #expect(throws: Failure.self) { try second().get() }
        #expect(throws: Never.self) { try third().get() }
        #expect(database.commits - commitsBefore == 1)
        #expect(try fixture.psql("SELECT string_agg(writer || n, ',' ORDER BY writer) FROM items") == "first1,third1")
    }

    @Test("a read waiting while a transaction runs commits it first, and sees its row")
    func readCommitsTheGroup() throws {
        let fixture = try PostgresFixture(schema: PostgresFixture.itemsSchema)
        defer { fixture.remove() }
        let database = fixture.database
        let (proceed, writer) = heldTransaction(database, writer: "w")
        let reader = onThread { () throws -> Int64 in
            try #require(try database.query("SELECT count(*) AS n FROM items").first).get("n")
        }
        try waitForWaiters(database, 1)
        proceed.signal()
        #expect(throws: Never.self) { try writer().get() }
        #expect(try reader().get() == 1)
        #expect(try fixture.psql("SELECT count(*) FROM items") == "1")
    }

    @Test("each member of a group costs one message, its write: its savepoints and releases ride along")
    func membersReleaseInTheNextMessage() throws {
        let fixture = try PostgresFixture(schema: PostgresFixture.itemsSchema)
        defer { fixture.remove() }
        let database = fixture.database
        // Prepares the insert, so the count below holds no PREPARE.
        try database.transaction {
            try database.execute("INSERT INTO items (writer, n) VALUES (?, 1)", [.text("warm")])
        }
        let before = database.roundTrips
        let commitsBefore = database.commits
        let (proceed, first) = heldTransaction(database, writer: "first")
        let members = (1...2).map { n in
            onThread {
                try database.transaction {
                    try database.execute("INSERT INTO items (writer, n) VALUES (?, 1)", [.text("member\(n)")])
                }
            }
        }
        try waitForWaiters(database, 2)
        proceed.signal()
        #expect(throws: Never.self) { try first().get() }
        for member in members { #expect(throws: Never.self) { try member().get() } }
        #expect(database.commits - commitsBefore == 1)
        // BEGIN with the exclusive lock, and the first insert; per member
        // its insert, with the previous member's RELEASE and its own
        // SAVEPOINT in its pipeline; one COMMIT. With each member's
        // SAVEPOINT and RELEASE in messages of their own it took 9.
        #expect(database.roundTrips - before == 5)
        #expect(try fixture.psql("SELECT count(*) FROM items") == "4")
    }

    @Test("with a separate read connection, a read outside a transaction neither waits for nor commits a running one")
    func separateReadsLeaveTheGroupOpen() throws {
        var configuration = PostgresConfiguration(isolation: .rowLocks)
        configuration.separateReadConnection = true
        let fixture = try PostgresFixture(configuration: configuration, schema: PostgresFixture.itemsSchema)
        defer { fixture.remove() }
        let database = fixture.database
        let commitsBefore = database.commits
        let (proceed, writer) = heldTransaction(database, writer: "w")
        // The transaction holds the writing connection until `proceed`: on
        // that connection this read would wait for it (and then commit it).
        let done = DispatchSemaphore(value: 0)
        let reader = onThread { () throws -> Int64 in
            defer { done.signal() }
            return try #require(try database.query("SELECT count(*) AS n FROM items").first).get("n")
        }
        let readWhileHeld = done.wait(timeout: .now() + 30) == .success
        proceed.signal()
        #expect(readWhileHeld)
        #expect(throws: Never.self) { try writer().get() }
        // It ran while the row was uncommitted, so it saw none.
        #expect(try reader().get() == 0)
        #expect(database.commits - commitsBefore == 1)
        #expect(database.readerRoundTrips > 0)
        #expect(try database.query("SELECT count(*) AS n FROM items").first?.get("n", as: Int64.self) == 1)
    }
}
