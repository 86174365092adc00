import Foundation
import ShareKitSQLInterface
import ShareKitSQLiteStore
import ShareKitSQLiteStoreTesting
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

@Suite("surviving SIGKILL")
struct DurabilityTests {
    private func integrityCheck(_ database: SQLiteDatabase) throws -> String {
        try #require(try database.query("PRAGMA integrity_check").first).get(at: 0)
    }

    @Test("a row committed just before SIGKILL is there when the file is reopened")
    func commitThenKill() throws {
        let temporary = try TemporaryDatabase(schema: TemporaryDatabase.itemsSchema)
        defer { temporary.remove() }
        try temporary.database.close()  // nobody else holds the file: the helper's WAL is all there is

        let helper = try HelperProcess(["sql-commit-loop", temporary.path, "killed", "1"])
        #expect(helper.readLine() == "committed 1")
        let outcome = helper.killed()
        #expect(outcome.status == 128 + 9, "helper was not killed: \(outcome.stderr)")

        let reopened = try SQLiteDatabase(path: temporary.path)
        defer { try? reopened.close() }
        let rows = try reopened.query("SELECT writer, n FROM items")
        #expect(rows.count == 1)
        #expect(try rows.first?.get("writer", as: String.self) == "killed")
        #expect(try integrityCheck(reopened) == "ok")
    }

    @Test("SIGKILL inside a transaction leaves none of its rows, and the file is whole")
    func killInsideTransaction() throws {
        let temporary = try TemporaryDatabase(schema: TemporaryDatabase.itemsSchema)
        defer { temporary.remove() }
        try temporary.database.close()

        let helper = try HelperProcess(["sql-hold-transaction", temporary.path, "unfinished"])
        #expect(helper.readLine() == "inside")  // 10 rows written, not committed
        #expect(helper.killed().status == 128 + 9)

        let reopened = try SQLiteDatabase(path: temporary.path)
        defer { try? reopened.close() }
        #expect(try reopened.query("SELECT count(*) AS n FROM items").first?.get("n", as: Int64.self) == 0)
        #expect(try integrityCheck(reopened) == "ok")
        // And the write lock died with the process.
        try reopened.execute("INSERT INTO items (writer, n) VALUES ('after', 1)")
    }

    @Test("SIGKILL during a stream of commits keeps every commit that was announced", arguments: [1, 37, 250])
    func killDuringStream(announced: Int) throws {
        let temporary = try TemporaryDatabase(schema: TemporaryDatabase.itemsSchema)
        defer { temporary.remove() }
        let helper = try HelperProcess(["sql-commit-loop", temporary.path, "stream", "0"])
        for expected in 1...announced {
            #expect(helper.readLine() == "committed \(expected)")
        }
        // The helper goes on committing while it is killed: somewhere in a
        // transaction, a commit or a checkpoint.
        #expect(helper.killed().status == 128 + 9)

        // This connection stayed open the whole time; a fresh one must agree.
        let reopened = try SQLiteDatabase(path: temporary.path)
        defer { try? reopened.close() }
        let numbers = try reopened.query("SELECT n FROM items WHERE writer = 'stream' ORDER BY n").map {
            try $0.get("n", as: Int64.self)
        }
        #expect(numbers.count >= announced)
        #expect(numbers == Array(1...Int64(numbers.count)))  // no gap, nothing torn
        #expect(try integrityCheck(reopened) == "ok")
    }
}

extension HelperProcess {
    /// Kills the helper with SIGKILL, the way the system ends a process with
    /// no chance to clean up, and waits for it to be gone.
    /// - Returns: how it ended (status 137).
    fileprivate func killed() -> Outcome {
        kill(SIGKILL)
        return finish()
    }
}
