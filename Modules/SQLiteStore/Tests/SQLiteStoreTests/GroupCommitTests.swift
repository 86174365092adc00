import Foundation
import ShareKitSQLInterface
import ShareKitSQLiteStore
import ShareKitSQLiteStoreTesting
import ShareKitSystemTesting
import Testing

/// Group commit and reading connections, on real files with
/// `synchronous=FULL`, from real threads (the cooperative pool would run
/// only as many transactions at once as there are cores).
@Suite("group commit and reading connections")
struct GroupCommitTests {
    private struct Refused: Error {}

    /// Runs `body(thread, index)` `count` times on each of `threads` threads, all started together.
    private func onThreads(_ threads: Int, _ count: Int, _ body: @escaping @Sendable (Int, Int) throws -> Void)
        -> [any Error]
    {
        final class Errors: @unchecked Sendable {
            let lock = NSLock()
            var all: [any Error] = []
        }
        let errors = Errors()
        let start = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for thread in 0..<threads {
            done.enter()
            Thread {
                start.wait()
                for index in 0..<count {
                    do { try body(thread, index) } catch { errors.lock.withLock { errors.all.append(error) } }
                }
                done.leave()
            }.start()
        }
        for _ in 0..<threads { start.signal() }
        done.wait()
        return errors.all
    }

    @Test("transactions from 8 threads share commits, and each returns with its row committed")
    func sharedCommits() throws {
        let temporary = try TemporaryDatabase(schema: TemporaryDatabase.itemsSchema)
        defer { temporary.remove() }
        let database = temporary.database
        // No checkpoint may restart the log before it is counted.
        try database.execute("PRAGMA wal_autocheckpoint=0")
        let observer = try SQLiteDatabase(path: temporary.path)
        defer { try? observer.close() }
        let transactions = 8 * 25
        let errors = onThreads(8, 25) { thread, n in
            try database.transaction {
                try database.execute(
                    "INSERT INTO items (writer, n) VALUES (?, ?)", [.text("w\(thread)"), .integer(Int64(n))])
            }
            // Returned: committed, so another connection sees the row.
            let seen = try observer.query(
                "SELECT count(*) AS n FROM items WHERE writer = ? AND n = ?", [.text("w\(thread)"), .integer(Int64(n))])
            guard try seen.first?.get("n", as: Int64.self) == 1 else { throw Refused() }
        }
        #expect(errors.isEmpty, "\(errors)")
        let commits = try WALFile.commits(temporary.path + "-wal")
        #expect(commits > 0)
        #expect(commits < transactions, "every transaction committed alone")
        #expect(try observer.query("SELECT count(*) AS n FROM items").first?.get("n", as: Int64.self) == 200)
    }

    @Test("a transaction that throws is undone alone; the ones it shared a commit with are kept")
    func failingMember() throws {
        let temporary = try TemporaryDatabase(schema: TemporaryDatabase.itemsSchema)
        defer { temporary.remove() }
        let database = temporary.database
        try database.execute("PRAGMA wal_autocheckpoint=0")
        let errors = onThreads(8, 25) { thread, n in
            try database.transaction {
                try database.execute(
                    "INSERT INTO items (writer, n) VALUES (?, ?)", [.text("w\(thread)"), .integer(Int64(n))])
                // A nested transaction's work goes with its member.
                try database.transaction {
                    try database.execute(
                        "INSERT INTO items (writer, n) VALUES (?, ?)", [.text("w\(thread)"), .integer(Int64(1000 + n))])
                }
                if n % 5 == 4 { throw Refused() }
            }
        }
        #expect(errors.count == 8 * 5)
        let refusals = errors.filter { $0 is Refused }.count
        #expect(refusals == errors.count)
        let kept = try database.query("SELECT n FROM items ORDER BY writer, n").map { try $0.get("n", as: Int64.self) }
        let keptPerThread: [Int64] = (0..<25).filter { $0 % 5 != 4 }.map { Int64($0) }
        let nestedPerThread: [Int64] = keptPerThread.map { $0 + 1000 }
        var expected: [Int64] = []
        for _ in 0..<8 { expected += keptPerThread + nestedPerThread }
        #expect(kept.sorted() == expected.sorted())
        let commits = try WALFile.commits(temporary.path + "-wal")
        #expect(commits < 8 * 20, "every transaction committed alone")
    }

    @Test(
        "with reading connections, a read outside a transaction neither waits for another thread's transaction nor sees it"
    )
    func readersSeeCommittedOnly() throws {
        let temporary = try TemporaryDatabase(
            configuration: SQLiteConfiguration(readers: 2), schema: TemporaryDatabase.itemsSchema)
        defer { temporary.remove() }
        let database = temporary.database
        let inserted = DispatchSemaphore(value: 0)
        let read = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        final class Outcome: @unchecked Sendable {
            var readInTime = false
            var error: (any Error)?
        }
        let outcome = Outcome()
        Thread {
            do {
                try database.transaction {
                    try database.execute("INSERT INTO items (writer, n) VALUES ('open', 1)")
                    inserted.signal()
                    // The read below must not need this transaction to end.
                    outcome.readInTime = read.wait(timeout: .now() + 20) == .success
                }
            } catch {
                outcome.error = error
            }
            finished.signal()
        }.start()
        inserted.wait()
        let during = try database.query("SELECT count(*) AS n FROM items").first?.get("n", as: Int64.self)
        read.signal()
        finished.wait()
        #expect(outcome.error == nil)
        #expect(outcome.readInTime, "the read waited for the transaction")
        #expect(during == 0)
        #expect(try database.query("SELECT count(*) AS n FROM items").first?.get("n", as: Int64.self) == 1)
    }

    @Test("with reading connections, writes outside a transaction still go to the writer, queries that write too")
    func writesOutsideTransactions() throws {
        let temporary = try TemporaryDatabase(
            configuration: SQLiteConfiguration(readers: 2), schema: TemporaryDatabase.itemsSchema)
        defer { temporary.remove() }
        let database = temporary.database
        let result = try database.execute("INSERT INTO items (writer, n) VALUES ('a', 1)")
        #expect(result.changes == 1)
        let returned = try database.query("INSERT INTO items (writer, n) VALUES ('a', 2) RETURNING id")
        #expect(try returned.first?.get("id", as: Int64.self) == 2)
        // Both again: the texts are now known to write and go straight to the writer.
        try database.execute("INSERT INTO items (writer, n) VALUES ('a', 3)")
        _ = try database.query("INSERT INTO items (writer, n) VALUES ('a', 4) RETURNING id")
        #expect(try database.query("SELECT count(*) AS n FROM items").first?.get("n", as: Int64.self) == 4)
        #expect {
            try database.execute("BEGIN")
        } throws: { error in
            guard case SQLError.misuse(let message) = error else { return false }
            return message.contains("transaction { }")
        }
    }

    @Test("closing with reading connections open leaves the rows in the file and no log beside it")
    func closeLeavesNoLog() throws {
        let temporary = try TemporaryDatabase(
            configuration: SQLiteConfiguration(readers: 2), schema: TemporaryDatabase.itemsSchema)
        defer { temporary.remove() }
        let database = temporary.database
        let errors = onThreads(4, 10) { thread, n in
            try database.execute(
                "INSERT INTO items (writer, n) VALUES (?, ?)", [.text("w\(thread)"), .integer(Int64(n))])
            _ = try database.query("SELECT count(*) AS n FROM items")
        }
        #expect(errors.isEmpty, "\(errors)")
        try database.close()
        #expect(!FileManager.default.fileExists(atPath: temporary.path + "-wal"), "a connection was left open")
        #expect(throws: SQLError.self) { try database.query("SELECT 1") }
        let reopened = try SQLiteDatabase(path: temporary.path)
        defer { try? reopened.close() }
        #expect(try reopened.query("SELECT count(*) AS n FROM items").first?.get("n", as: Int64.self) == 40)
    }
}

/// Reads a SQLite write-ahead log file.
enum WALFile {
    /// The number of commit records in the log's current generation: frames
    /// whose salts match the header and whose "database size after commit"
    /// field is set.
    /// - Parameter path: the `-wal` file.
    /// - Returns: the count.
    /// - Throws: when the file cannot be read.
    static func commits(_ path: String) throws -> Int {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func word(_ offset: Int) -> UInt32 {
            bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        guard bytes.count >= 32 else { return 0 }
        let pageSize = Int(word(8))
        let salts = (word(16), word(20))
        var commits = 0
        var offset = 32
        while offset + 24 + pageSize <= bytes.count, (word(offset + 8), word(offset + 12)) == salts {
            if word(offset + 4) != 0 { commits += 1 }
            offset += 24 + pageSize
        }
        return commits
    }
}
