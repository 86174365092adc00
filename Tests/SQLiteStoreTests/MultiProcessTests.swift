import ShareKitSQLInterface
import ShareKitSQLiteStore
import ShareKitSQLiteStoreTesting
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

@Suite("several processes on one file")
struct MultiProcessTests {
    @Test("two processes inserting 500 rows each at once end with exactly 1000 rows")
    func twoWriters() throws {
        // This process creates the file (and its WAL mode); the helpers then
        // migrate at the same time, which must apply the step once.
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        let helpers = try ["a", "b"].map { try HelperProcess(["sql-insert", temporary.path, $0, "500"]) }
        for outcome in helpers.map({ $0.finish() }) {
            #expect(outcome.status == 0, "helper failed: \(outcome.stderr)")
            #expect(outcome.stdout == "done 500\n")
        }
        let rows = try temporary.database.query(
            "SELECT writer, count(*) AS n FROM items GROUP BY writer ORDER BY writer")
        #expect(try rows.map { try $0.get("writer", as: String.self) } == ["a", "b"])
        #expect(try rows.map { try $0.get("n", as: Int64.self) } == [500, 500])
        #expect(try temporary.database.schemaVersion() == 1)
    }

    @Test("a writer that waits longer than the busy timeout gets .busy; after the release it succeeds")
    func busyTimeout() throws {
        let temporary = try TemporaryDatabase(
            configuration: SQLiteConfiguration(busyTimeout: .milliseconds(200)), schema: TemporaryDatabase.itemsSchema)
        defer { temporary.remove() }
        let database = temporary.database
        let holder = try HelperProcess(["sql-hold-transaction", temporary.path, "holder"])
        #expect(holder.readLine() == "inside")  // it holds the write lock now

        let error = #expect(throws: SQLError.self) {
            try database.execute("INSERT INTO items (writer, n) VALUES ('me', 1)")
        }
        guard case .busy(let message) = try #require(error) else {
            Issue.record("expected .busy, got \(String(describing: error))")
            return
        }
        #expect(message.contains(temporary.path))
        #expect(throws: SQLError.self) { try database.transaction {} }
        // WAL: reading goes on while another process writes, and sees only committed data.
        #expect(try database.query("SELECT count(*) AS n FROM items").first?.get("n", as: Int64.self) == 0)

        holder.writeLine("commit")
        #expect(holder.readLine() == "committed")
        #expect(holder.finish().status == 0)
        try database.execute("INSERT INTO items (writer, n) VALUES ('me', 1)")
        #expect(try database.query("SELECT count(*) AS n FROM items").first?.get("n", as: Int64.self) == 11)
    }
}
